// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* judge.c: the expression's judge (see judge.h), assembled around the translations:
 * what flowtop_gate worked out of the frame (its link header, its length on the wire),
 * the translation for its kind of link, then a tail call into flowtop_count or
 * flowtop_rejected. */
#include "judge.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>

#include "flowtop.h"
#include "cbpf.h"

#define CB(word) (int16_t)(offsetof(struct __sk_buff, cb) + 4 * (word))

/* The judge's instructions: cap of them at most; n counts past cap, and what would go
 * there is not written. */
struct code {
	struct bpf_insn *i;
	size_t n, cap;
};

static void op(struct code *c, uint8_t code, uint8_t dst, uint8_t src, int16_t off, int32_t imm)
{
	if (c->n < c->cap)
		c->i[c->n] = (struct bpf_insn){ code, dst, src, off, imm };
	c->n++;
}

/* Room left for instructions: never negative, whatever n came to. */
static size_t room(const struct code *c)
{
	return c->n < c->cap ? c->cap - c->n : 0;
}

/* A tail call into gate_progs[which] (BPF_LD_IMM64 of its fd: two instructions), and
 * the end of the run if it fails. */
static void tail_call(struct code *c, int progs_fd, enum flowtop_gate_prog which)
{
	op(c, BPF_ALU64 | BPF_MOV | BPF_X, BPF_REG_1, CBPF_REG_CTX, 0, 0);
	op(c, BPF_LD | BPF_DW | BPF_IMM, BPF_REG_2, BPF_PSEUDO_MAP_FD, 0, progs_fd);
	op(c, 0, 0, 0, 0, 0);
	op(c, BPF_ALU64 | BPF_MOV | BPF_K, BPF_REG_3, 0, 0, which);
	op(c, BPF_JMP | BPF_CALL, 0, 0, 0, BPF_FUNC_tail_call);
	op(c, BPF_ALU64 | BPF_MOV | BPF_K, BPF_REG_0, 0, 0, 0);
	op(c, BPF_JMP | BPF_EXIT, 0, 0, 0, 0);
}

/* The translation of e for link start `start`, its match one jump to `match` and its
 * rejection one to `reject`, both patched once known (their places returned). */
static int body(struct code *c, const struct expr *e, unsigned start, size_t *jumps, char *err,
		size_t errlen)
{
	const struct expr_insn *prog;
	size_t n;
	int len;

	prog = expr_insns(e, &n);
	len = cbpf_translate(prog, n, start, 1, c->i + c->n, room(c), err, errlen);
	if (len == -E2BIG) /* the room it was given is the judge's, not the expression's */
		snprintf(err, errlen,
			 "the expression takes more than the %zu instructions of its "
			 "program",
			 c->cap);
	if (len < 0)
		return len;
	c->n += (size_t)len;
	jumps[0] = c->n;
	op(c, BPF_JMP | BPF_JA, 0, 0, 0, 0); /* to the match */
	jumps[1] = c->n;
	op(c, BPF_JMP | BPF_JA, 0, 0, 0, 0); /* to the rejection */
	return 0;
}

static void patch(struct code *c, size_t at, size_t to)
{
	c->i[at].off = (int16_t)((long)to - (long)at - 1);
}

int judge_assemble(struct bpf_insn *insns, size_t cap, const struct expr *eth,
		   const struct expr *raw, int progs_fd, char *err, size_t errlen)
{
	struct code co = { .i = insns, .cap = cap }, *c = &co;
	size_t choose, jeth[2] = { 0 }, jraw[2] = { 0 }, eth_at = 0, raw_at = 0, match, reject, k;
	int ret;

	/* what flowtop_gate worked out (enum flowtop_gate_cb) */
	op(c, BPF_ALU64 | BPF_MOV | BPF_X, CBPF_REG_CTX, BPF_REG_1, 0, 0);
	op(c, BPF_LDX | BPF_MEM | BPF_W, CBPF_REG_LEN, CBPF_REG_CTX, CB(FLOWTOP_CB_WIRE_LEN), 0);
	op(c, BPF_LDX | BPF_MEM | BPF_W, BPF_REG_2, CBPF_REG_CTX, CB(FLOWTOP_CB_LINK), 0);
	choose = c->n;
	op(c, BPF_JMP | BPF_JEQ | BPF_K, BPF_REG_2, 0, 0, 0); /* no link header: raw */
	op(c, BPF_JMP | BPF_JA, 0, 0, 0, 0);		      /* else Ethernet */
	if (eth) {
		eth_at = c->n;
		ret = body(c, eth, BPF_HDR_START_MAC, jeth, err, errlen);
		if (ret)
			return ret;
	}
	if (raw) {
		raw_at = c->n;
		ret = body(c, raw, BPF_HDR_START_NET, jraw, err, errlen);
		if (ret)
			return ret;
	}
	match = c->n;
	tail_call(c, progs_fd, FLOWTOP_GATE_COUNT);
	reject = c->n;
	tail_call(c, progs_fd, FLOWTOP_GATE_REJECTED);
	if (c->n > c->cap) {
		snprintf(err, errlen, "the expression takes more than %zu instructions", c->cap);
		return -E2BIG;
	}
	patch(c, choose, raw ? raw_at : reject);
	patch(c, choose + 1, eth ? eth_at : reject);
	for (k = 0; k < 2; k++) {
		if (eth)
			patch(c, jeth[k], k ? reject : match);
		if (raw)
			patch(c, jraw[k], k ? reject : match);
	}
	return (int)c->n;
}
