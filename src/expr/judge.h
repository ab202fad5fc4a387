/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* judge.h: the instructions of a filter expression's judge, the program flowtop_gate
 * tail-calls (src/expr/gate.h): no kernel needed to make them. */
#ifndef FLOWTOP_JUDGE_H
#define FLOWTOP_JUDGE_H

#include <stddef.h>

#include <linux/bpf.h>

#include "expr.h"

/* The judge's instructions for the translations eth and raw (NULL: a kind it does not
 * judge), tail calls through the gate_progs array progs_fd, into insns (cap at most):
 * their number, or -errno with the reason in err (-E2BIG: more than cap). Nothing is
 * written past cap, however long the expression. */
int judge_assemble(struct bpf_insn *insns, size_t cap, const struct expr *eth,
		   const struct expr *raw, int progs_fd, char *err, size_t errlen);

#endif
