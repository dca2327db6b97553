/* SPDX-License-Identifier: MIT */
/*
 * The GPU tile's shape and multiply-adds, shared by the matrix family's gemm_tiles (cl/gemm.cl)
 * and the convolution's implicit GEMM, conv_gemm (cl/conv.cl), which differ only in how they
 * fill the slabs and store the block.
 *
 * A work-group of TX x TY items computes a TM x TN tile of a product (TM = TY * WM rows, TN =
 * TX * WN columns), k by TK at a time through an A slab as[k][m] (TM floats a k row, then 4
 * of padding) and a B slab bs[k][n] (TN + 4) in local memory, two of each. An item's outputs
 * are groups of 4 consecutive rows and 4 consecutive columns: rows 4 * ly + 4 * TY * g + (0..3)
 * for g < WM / 4, columns 4 * lx + 4 * TX * h + (0..3) for h < WN / 4. Per k an item reads
 * WM / 4 + WN / 4 float4 vectors of the slabs and makes WM * WN multiply-adds, each output's
 * sum over k in order.
 *
 * Macros: TX, TY, WM, WN (multiples of 4), TK; the including file defines nothing else here.
 */
#ifndef DMLI_TILE_CL
#define DMLI_TILE_CL

#ifndef TX
#define TX 8
#endif
#ifndef TY
#define TY 8
#endif
#ifndef WM
#define WM 4
#endif
#ifndef WN
#define WN 4
#endif
#ifndef TK
#define TK 8
#endif
#if WM % 4 != 0 || WN % 4 != 0
#error "the GPU tile: WM and WN are multiples of 4"
#endif

#define TM (TY * WM)
#define TN (TX * WN)
#define RM (WM / 4)
#define RN (WN / 4)
#define AS_W (TM + 4) /* floats a k row of the A slab */
#define BS_W (TN + 4)
#define ITEMS (TX * TY)
#define A_SLOTS ((TK * TM + ITEMS - 1) / ITEMS) /* values an item stages a step, at most */
#define B_SLOTS ((TK * TN + ITEMS - 1) / ITEMS)

/* Staging along k (an operand whose unit stride is k): value e of a slab (w rows or columns
 * of TK values) goes to k TILE_K_OF(e, w) of row TILE_MN_OF(e, w), in runs of 8 consecutive k
 * of a row (of TK where TK is not a multiple of 8), all the rows' first runs, then their next
 * ones. A warp's 32 values are then 8 k of 4 rows: with the slab rows' 4 floats of padding (k
 * rows 4 banks apart) they land on 32 different banks whatever TK (runs of 16 k put k and k +
 * 8 on one bank: 2-way conflicts), and read 32-byte runs of global memory. */
#ifndef TILE_KRUN /* an including file may stage longer runs (cl/intmm.cl: bytes) */
#define TILE_KRUN (TK % 8 == 0 ? 8 : TK)
#endif
#define TILE_K_OF(e, w) ((e) % TILE_KRUN + TILE_KRUN * ((e) / (TILE_KRUN * (w))))
#define TILE_MN_OF(e, w) ((e) / TILE_KRUN % (w))

/* An operand's staging slot: where its value goes in the slab, where it comes from, and
 * whether it is a value of the slab (an item may have fewer slots than others) inside the
 * matrix's rows (or columns). */
typedef struct {
    long at;   /* the element at the current step's k (advanced by TK * k stride a step) */
    int slab;  /* index in one slab: kk * width + mn */
    int kk;    /* k within the step */
    bool live; /* a slot of the slab, whose row (column) is inside the matrix */
    bool mine; /* a slot of the slab at all */
} slot;

static slot slot_of(int e, int count, bool along_mn, int width_mn, int pitch, long mn0, long extent,
                    long base, long s_mn, long s_k)
{
    slot s;
    int kk = along_mn ? e / width_mn : TILE_K_OF(e, width_mn),
        mn = along_mn ? e % width_mn : TILE_MN_OF(e, width_mn);
    s.mine = e < count;
    s.live = s.mine && mn0 + mn < extent;
    s.kk = kk;
    s.slab = kk * pitch + mn;
    s.at = base + (s.live ? (mn0 + mn) * s_mn + kk * s_k : 0);
    return s;
}

/* acc[i][h] (row i of the block, columns 4 * h .. 4 * h + 3) = 0. */
#define TILE_ZERO(acc)                                                                     \
    do {                                                                                   \
        _Pragma("unroll") for (int i_ = 0; i_ < WM; ++i_)                                  \
            _Pragma("unroll") for (int h_ = 0; h_ < RN; ++h_)(acc)[i_][h_] = (float4)0.0f; \
    } while (0)

/* One step's multiply-adds: slab `cur` of as4 and bs4 (float4 vectors: TK * AS_W / 4 and
 * TK * BS_W / 4 a slab) into acc, for item (lx, ly). Each lane of a vector multiply-add is one
 * multiply-add of a float (contracted: the file's FP_CONTRACT is OFF for the epilogues). */
#define TILE_MULTIPLY(as4, bs4, cur, lx, ly, acc)                                                  \
    do {                                                                                           \
        __local const float4 *ap_ = (as4) + (cur) * (TK * AS_W / 4) + (ly);                        \
        __local const float4 *bp_ = (bs4) + (cur) * (TK * BS_W / 4) + (lx);                        \
        _Pragma("unroll") for (int kk_ = 0; kk_ < TK; ++kk_)                                       \
        {                                                                                          \
            float av_[WM];                                                                         \
            float4 bv_[RN];                                                                        \
            _Pragma("unroll") for (int g_ = 0; g_ < RM; ++g_)                                      \
            {                                                                                      \
                const float4 v_ = ap_[kk_ * (AS_W / 4) + g_ * TY];                                 \
                av_[4 * g_] = v_.s0;                                                               \
                av_[4 * g_ + 1] = v_.s1;                                                           \
                av_[4 * g_ + 2] = v_.s2;                                                           \
                av_[4 * g_ + 3] = v_.s3;                                                           \
            }                                                                                      \
            _Pragma("unroll") for (int h_ = 0; h_ < RN; ++h_) bv_[h_] =                            \
                bp_[kk_ * (BS_W / 4) + h_ * TX];                                                   \
            _Pragma("unroll") for (int i_ = 0; i_ < WM; ++i_)                                      \
                _Pragma("unroll") for (int h_ = 0; h_ < RN; ++h_)                                  \
            {                                                                                      \
                _Pragma("OPENCL FP_CONTRACT ON")(acc)[i_][h_] = av_[i_] * bv_[h_] + (acc)[i_][h_]; \
            }                                                                                      \
        }                                                                                          \
    } while (0)

/* After a step's multiply-adds: the next step's values, held by the item in ra and rb (one a
 * staging slot: sa and sb, whose .mine says whether it is a slot of the slab and .slab where
 * its value goes), stored into the other slab, which becomes `cur`. */
#define TILE_STAGE_NEXT(as, bs, cur, sa, ra, sb, rb)                  \
    do {                                                              \
        (cur) ^= 1;                                                   \
        _Pragma("unroll") for (int r_ = 0; r_ < A_SLOTS; ++r_)        \
        {                                                             \
            if ((sa)[r_].mine)                                        \
                (as)[(cur) * (TK * AS_W) + (sa)[r_].slab] = (ra)[r_]; \
        }                                                             \
        _Pragma("unroll") for (int r_ = 0; r_ < B_SLOTS; ++r_)        \
        {                                                             \
            if ((sb)[r_].mine)                                        \
                (bs)[(cur) * (TK * BS_W) + (sb)[r_].slab] = (rb)[r_]; \
        }                                                             \
    } while (0)

/*
 * Split-K (SPLIT 1 or 2; src/launch.h dmli_compute_launch): SPLIT 1 runs the product over one
 * slice of k and stores the block's partial sums in the scratch, SPLIT 2 sums the slices' in
 * slice order and runs the epilogue. The scratch holds, for each slice, each work-group of the
 * unsplit grid (blk: its index, dimension 0 fastest) and each float4 (i, h) of an item's block,
 * the ITEMS items' vectors in order: a warp's stores and loads are 512 consecutive bytes, as
 * float4 (the temporary resource is bound at a multiple of 256 bytes, the scratch at a
 * multiple of 256 in it: src/program.c).
 */
#ifndef SPLIT
#define SPLIT 0
#endif
#if SPLIT
#define TILE_SPLIT_ARGS , __global float *part, long part_base
#else
#define TILE_SPLIT_ARGS
#endif
#define TILE_PART_AT(blk, i, h, lid) ((((blk)*WM + (i)) * RN + (h)) * ITEMS + (lid))

/* Of `splits` slices: the unsplit grid's work-group z (dimension 2), its slice and the unsplit
 * grid's groups along z. */
#define TILE_SPLIT_Z(splits, z, slice, zs)                                                \
    do {                                                                                  \
        const long g2_ = get_group_id(2);                                                 \
        (zs) = SPLIT == 1 ? (long)get_num_groups(2) / (splits) : (long)get_num_groups(2); \
        (z) = SPLIT == 1 ? g2_ % (zs) : g2_;                                              \
        (slice) = SPLIT == 1 ? g2_ / (zs) : 0;                                            \
    } while (0)

/* The index of work-group z's tile in a slice's blocks. */
#define TILE_BLOCK(z) \
    (((z) * (long)get_num_groups(1) + get_group_id(1)) * (long)get_num_groups(0) + get_group_id(0))

/* The scratch as float4 vectors. */
#define TILE_PART(part, part_base) ((__global float4 *)((part) + (part_base)))

/* SPLIT 1: acc into slice `slice` of the scratch (part, in floats from part_base). */
#define TILE_PART_STORE(part, part_base, slice, zs, z, lid, acc)                             \
    do {                                                                                     \
        const long blk_ = TILE_BLOCK((slice) * (zs) + (z));                                  \
        _Pragma("unroll") for (int i_ = 0; i_ < WM; ++i_)                                    \
            _Pragma("unroll") for (int h_ = 0; h_ < RN; ++h_)                                \
                TILE_PART(part, part_base)[TILE_PART_AT(blk_, i_, h_, lid)] = (acc)[i_][h_]; \
    } while (0)

/* SPLIT 2: acc = the sum of the `slices` slices' partial sums, in slice order (the first
 * slice's assigned, each other added). */
#define TILE_PART_SUM(part, part_base, slices, zs, z, lid, acc)                   \
    do {                                                                          \
        const long b0_ = TILE_BLOCK(z);                                           \
        _Pragma("unroll") for (int i_ = 0; i_ < WM; ++i_)                         \
            _Pragma("unroll") for (int h_ = 0; h_ < RN; ++h_)(acc)[i_][h_] =      \
                TILE_PART(part, part_base)[TILE_PART_AT(b0_, i_, h_, lid)];       \
        for (long s_ = 1; s_ < (slices); ++s_) {                                  \
            const long b_ = TILE_BLOCK(s_ * (zs) + (z));                          \
            _Pragma("unroll") for (int i_ = 0; i_ < WM; ++i_)                     \
                _Pragma("unroll") for (int h_ = 0; h_ < RN; ++h_)(acc)[i_][h_] += \
                TILE_PART(part, part_base)[TILE_PART_AT(b_, i_, h_, lid)];        \
        }                                                                         \
    } while (0)

/* Row i of an item's block, column 4 * h + x: their offsets in the tile. */
#define TILE_ROW(ly, i) (4 * (ly) + 4 * TY * ((i) / 4) + (i) % 4)
#define TILE_COL(lx, h) (4 * (lx) + 4 * TX * (h))

#endif /* DMLI_TILE_CL */
