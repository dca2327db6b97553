/* SPDX-License-Identifier: MIT */
/*
 * The map family's comparisons, logic, bit operations, tests, select and casts
 * (src/internal.h dmli_map_op 64-95): F, an expression of x0 (x1, x2) and the operation's
 * parameters q0 to q2, for those OPs only.
 */

/* Comparisons and logic give 1 or 0 (an int, converted to COMPUTE_T); a NaN compares false
 * with anything, -0 equals +0. The variant (q0, q1) is a parameter, not a kernel: the
 * operators of one family share their programs. */
#define DMLI_OP_64(x0, x1, x2, x3, x4, q0, q1, q2) \
    (q0 == 0 ? x0 == x1 : q0 == 1 ? x0 > x1 : q0 == 2 ? x0 >= x1 : q0 == 3 ? x0 < x1 : x0 <= x1)
#define DMLI_OP_65(x0, x1, x2, x3, x4, q0, q1, q2) \
    (q0 == 0 ? (x0 != 0 && x1 != 0) : q0 == 1 ? (x0 != 0 || x1 != 0) : ((x0 != 0) != (x1 != 0)))
#define DMLI_OP_66(x0, x1, x2, x3, x4, q0, q1, q2) (x0 == 0)
/* Bit operations: the host maps every tensor to the unsigned type of its width, so x0 and x1
 * hold the elements' encodings zero-extended; the store keeps the output's width. */
#define DMLI_OP_67(x0, x1, x2, x3, x4, q0, q1, q2) (q0 == 0 ? x0 & x1 : q0 == 1 ? x0 | x1 : x0 ^ x1)
#define DMLI_OP_68(x0, x1, x2, x3, x4, q0, q1, q2) (~x0)
/* a count at or past the width q0 shifts every bit out */
#define DMLI_OP_69(x0, x1, x2, x3, x4, q0, q1, q2) \
    (x1 >= q0 ? (COMPUTE_T)0 : q1 == 0 ? x0 << x1 : x0 >> x1)
#define DMLI_OP_70(x0, x1, x2, x3, x4, q0, q1, q2) popcount(x0)
/* q0: DML_IS_INFINITY_MODE (0 either, 1 positive, 2 negative) */
#define DMLI_OP_71(x0, x1, x2, x3, x4, q0, q1, q2) \
    (isinf(x0) && (q0 == 0 || (q0 == 1 ? x0 > 0 : x0 < 0)))
#define DMLI_OP_72(x0, x1, x2, x3, x4, q0, q1, q2) isnan(x0)
/* on encodings: the host maps A, B and the output to unsigned types */
#define DMLI_OP_73(x0, x1, x2, x3, x4, q0, q1, q2) (x0 != 0 ? x1 : x2)
/* the load and the store convert (OUT_SAT: toward zero, saturated, NaN 0) */
#define DMLI_OP_74(x0, x1, x2, x3, x4, q0, q1, q2) x0
/* the value's encoding, in the output's unsigned type */
#define DMLI_OP_75(x0, x1, x2, x3, x4, q0, q1, q2) q0
/* The output element's flat logical index: the map keeps the output's dimension order and
 * only drops or merges dimensions (src/map.c), so row r and element u of the run are
 * element r * run + u of the row-major order. Integers wrap; floats round once. */
#if INT_COMPUTE
#define DMLI_OP_76(x0, x1, x2, x3, x4, q0, q1, q2) \
    (q0 + (COMPUTE_T)(r * (ulong)run + (ulong)u) * q1)
#else
#define DMLI_OP_76(x0, x1, x2, x3, x4, q0, q1, q2) \
    fma((COMPUTE_T)(r * (ulong)run + (ulong)u), q1, q0)
#endif
/* The generators that read the output element's position p (its flat logical index, as
 * DMLI_OP_76's) on encodings: every value tensor is the unsigned type of its width and the
 * compute ulong (src/launch_map.c), so an INT64 or UINT64 index and a FLOAT64 value stay
 * exact. ONE_HOT: p's coordinate along Axis (q0 the elements after it, q1 its size) against
 * the index, a signed type's negative index counted from the end (q2 1; x0 holds it
 * sign-extended); an index outside the axis matches no coordinate. */
#define DMLI_POS ((ulong)r * (ulong)run + (ulong)u)
#define DMLI_OP_77(x0, x1, x2, x3, x4, q0, q1, q2) \
    (DMLI_POS / q0 % q1 == (q2 != 0 && (long)x0 < 0 ? x0 + q1 : x0) ? x2 : x1)
/* DIAGONAL: p's diagonal t = column - row of its matrix (q0 its width, q1 its height) in the
 * band [g0, g0 + g1) (g2 1: outside it) takes the value q2, the rest the input x0 or 0. */
#if NIN > 0
#define DMLI_DIAGONAL_ELSE(x0) (x0)
#else
#define DMLI_DIAGONAL_ELSE(x0) ((COMPUTE_T)0)
#endif
#define DMLI_OP_78(x0, x1, x2, x3, x4, q0, q1, q2)                                            \
    ((((ulong)((long)(DMLI_POS % q0) - (long)(DMLI_POS / q0 % q1) - (long)g0) < (ulong)g1) != \
      (g2 != 0))                                                                              \
         ? q2                                                                                 \
         : DMLI_DIAGONAL_ELSE(x0))
