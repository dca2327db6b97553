/* SPDX-License-Identifier: MIT */
/*
 * The map family's further arithmetic (src/internal.h dmli_map_op 17-63): F, an expression
 * of x0 (x1) and the operation's parameters q0 to q2, for those OPs only.
 */
