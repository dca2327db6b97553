/* SPDX-License-Identifier: MIT */
/*
 * The map family's comparisons, logic, bit operations, tests, select and casts
 * (src/internal.h dmli_map_op 64-95): F, an expression of x0 (x1, x2) and the operation's
 * parameters q0 to q2, for those OPs only.
 */
