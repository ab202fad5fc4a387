// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* cbpf.c: classic BPF to eBPF (see cbpf.h), one classic instruction at a time, with the
 * jumps patched once every instruction has its place. Written here: the kernel's own
 * converter (bpf_convert_filter) is not exported, and it keeps LD_ABS, which ends a
 * program with 0 on a load past the frame where a rejection must be counted. */
#include "cbpf.h"

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <linux/filter.h>

#define REG_A	 BPF_REG_7
#define REG_X	 BPF_REG_8
#define M_OFF(i) (-64 + 4 * (int)(i)) /* classic M[i], from the frame pointer */
#define LOAD_OFF (-72)		      /* where a load lands */
#define LOOP_OFF                                                                                   \
	(-80)	       /* jumps back left (jump_back()): 8 bytes, so that the verifier             \
			* knows the count */
#define TO_MATCH  (-1) /* jump targets past the classic program */
#define TO_REJECT (-2)

struct fixup {
	size_t at; /* the eBPF jump to patch */
	long to;   /* the classic instruction it goes to, or TO_MATCH / TO_REJECT */
};

struct out {
	struct bpf_insn *insns;
	size_t n, cap;
	unsigned start; /* BPF_HDR_START_MAC or BPF_HDR_START_NET */
	struct fixup *fix;
	size_t nfix;
	bool full;
};

static void emit(struct out *o, uint8_t code, uint8_t dst, uint8_t src, int16_t off, int32_t imm)
{
	if (o->n == o->cap) {
		o->full = true;
		return;
	}
	o->insns[o->n++] = (struct bpf_insn){
		.code = code, .dst_reg = dst, .src_reg = src, .off = off, .imm = imm
	};
}

/* A jump (code, against dst and src/imm) to classic instruction `to`, patched later. */
static void jump(struct out *o, uint8_t code, uint8_t dst, uint8_t src, int32_t imm, long to)
{
	o->fix[o->nfix++] = (struct fixup){ o->n, to };
	emit(o, code, dst, src, 0, imm);
}

/* dst = the size bytes at offset (imm, or the register off_reg plus imm when off_reg is
 * not 0) from o->start, in host order; a load past the frame rejects it, as a classic
 * filter does. Offsets before where bpf_skb_load_bytes() starts (the link header, which
 * is always in the linear head) are read with bpf_skb_load_bytes_relative(); the rest
 * with bpf_skb_load_bytes(), which also reads the payload in page fragments (outgoing
 * TCP's, GRO's) where the relative load gives up at the linear head's end. */
static void load(struct out *o, uint8_t dst, int size, uint8_t off_reg, int32_t imm)
{
	static const uint8_t sizes[] = { [1] = BPF_B, [2] = BPF_H, [4] = BPF_W };

	if (off_reg) { /* X + k in 64 bits: past 2^32 classic BPF rejects, not wraps */
		emit(o, BPF_ALU | BPF_MOV | BPF_X, BPF_REG_2, off_reg, 0, 0);
		emit(o, BPF_ALU64 | BPF_ADD | BPF_K, BPF_REG_2, 0, 0, imm);
		jump(o, BPF_JMP | BPF_JGT | BPF_K, BPF_REG_2, 0, INT32_MAX, TO_REJECT);
	} else {
		emit(o, BPF_ALU | BPF_MOV | BPF_K, BPF_REG_2, 0, 0, imm);
	}
	emit(o, BPF_LDX | BPF_MEM | BPF_W, BPF_REG_1, CBPF_REG_CTX, CBPF_CTX_DATA_AT, 0);
	emit(o, BPF_JMP | BPF_JLT | BPF_X, BPF_REG_2, BPF_REG_1, 7, 0); /* to the head's */
	emit(o, BPF_ALU | BPF_SUB | BPF_X, BPF_REG_2, BPF_REG_1, 0, 0);
	emit(o, BPF_ALU64 | BPF_MOV | BPF_X, BPF_REG_1, CBPF_REG_CTX, 0, 0);
	emit(o, BPF_ALU64 | BPF_MOV | BPF_X, BPF_REG_3, BPF_REG_10, 0, 0);
	emit(o, BPF_ALU64 | BPF_ADD | BPF_K, BPF_REG_3, 0, 0, LOAD_OFF);
	emit(o, BPF_ALU64 | BPF_MOV | BPF_K, BPF_REG_4, 0, 0, size);
	emit(o, BPF_JMP | BPF_CALL, 0, 0, 0, BPF_FUNC_skb_load_bytes);
	emit(o, BPF_JMP | BPF_JA, 0, 0, 6, 0); /* to the verdict */
	emit(o, BPF_ALU64 | BPF_MOV | BPF_X, BPF_REG_1, CBPF_REG_CTX, 0, 0);
	emit(o, BPF_ALU64 | BPF_MOV | BPF_X, BPF_REG_3, BPF_REG_10, 0, 0);
	emit(o, BPF_ALU64 | BPF_ADD | BPF_K, BPF_REG_3, 0, 0, LOAD_OFF);
	emit(o, BPF_ALU64 | BPF_MOV | BPF_K, BPF_REG_4, 0, 0, size);
	emit(o, BPF_ALU64 | BPF_MOV | BPF_K, BPF_REG_5, 0, 0, (int32_t)o->start);
	emit(o, BPF_JMP | BPF_CALL, 0, 0, 0, BPF_FUNC_skb_load_bytes_relative);
	jump(o, BPF_JMP | BPF_JNE | BPF_K, BPF_REG_0, 0, 0, TO_REJECT);
	emit(o, BPF_LDX | BPF_MEM | sizes[size], dst, BPF_REG_10, LOAD_OFF, 0);
	if (size > 1)
		emit(o, BPF_ALU | BPF_END | BPF_TO_BE, dst, 0, 0, size * 8);
}

/* A = A << X or A >> X: 0 for a shift by 32 or more, as libpcap's bpf_filter() has it
 * (eBPF takes the count modulo 32). */
static void shift_by_x(struct out *o, uint8_t op)
{
	emit(o, BPF_JMP32 | BPF_JLT | BPF_K, REG_X, 0, 2, 32);
	emit(o, BPF_ALU | BPF_MOV | BPF_K, REG_A, 0, 0, 0);
	emit(o, BPF_JMP | BPF_JA, 0, 0, 1, 0);
	emit(o, (uint8_t)(BPF_ALU | op | BPF_X), REG_A, REG_X, 0, 0);
}

/* A jump back to classic instruction `to` (libpcap's protochain walks headers in a loop):
 * taken CBPF_LOOPS times in a run at most, then the frame is rejected, so that the
 * verifier sees the loop end. */
static void jump_back(struct out *o, long to)
{
	emit(o, BPF_LDX | BPF_MEM | BPF_DW, BPF_REG_0, BPF_REG_10, LOOP_OFF, 0);
	emit(o, BPF_ALU64 | BPF_SUB | BPF_K, BPF_REG_0, 0, 0, 1);
	emit(o, BPF_STX | BPF_MEM | BPF_DW, BPF_REG_10, BPF_REG_0, LOOP_OFF, 0);
	jump(o, BPF_JMP | BPF_JEQ | BPF_K, BPF_REG_0, 0, 0, TO_REJECT);
	jump(o, BPF_JMP | BPF_JA, 0, 0, 0, to);
}

static int size_of(uint16_t code)
{
	switch (BPF_SIZE(code)) {
	case BPF_W:
		return 4;
	case BPF_H:
		return 2;
	case BPF_B:
		return 1;
	}
	return 0;
}

/* Classic instruction i (of n) into o. 0, or -errno with the reason in err. */
static int one(struct out *o, const struct expr_insn *in, size_t i, size_t n, char *err,
	       size_t errlen)
{
	uint16_t code = in->code;
	uint8_t src = BPF_SRC(code) == BPF_X ? REG_X : 0;
	long next = (long)i + 1;

	switch (BPF_CLASS(code)) {
	case BPF_LD:
	case BPF_LDX: {
		uint8_t dst = BPF_CLASS(code) == BPF_LD ? REG_A : REG_X;

		switch (BPF_MODE(code)) {
		case BPF_IMM:
			emit(o, BPF_ALU | BPF_MOV | BPF_K, dst, 0, 0, (int32_t)in->k);
			return 0;
		case BPF_MEM:
			if (in->k >= 16)
				break;
			emit(o, BPF_LDX | BPF_MEM | BPF_W, dst, BPF_REG_10, (int16_t)M_OFF(in->k),
			     0);
			return 0;
		case BPF_LEN:
			emit(o, BPF_ALU | BPF_MOV | BPF_X, dst, CBPF_REG_LEN, 0, 0);
			return 0;
		case BPF_ABS:
		case BPF_IND:
			if (dst != REG_A || !size_of(code))
				break;
			if ((int32_t)in->k < 0) {
				snprintf(
				    err, errlen,
				    "classic instruction %zu loads the kernel's ancillary data "
				    "(offset %d)",
				    i, (int32_t)in->k);
				return -EOPNOTSUPP;
			}
			load(o, REG_A, size_of(code), BPF_MODE(code) == BPF_IND ? REG_X : 0,
			     (int32_t)in->k);
			return 0;
		case BPF_MSH: /* X = 4 * (the byte at k & 0xf): an IPv4 header's length */
			if (dst != REG_X || (int32_t)in->k < 0)
				break;
			load(o, REG_X, 1, 0, (int32_t)in->k);
			emit(o, BPF_ALU | BPF_AND | BPF_K, REG_X, 0, 0, 0xf);
			emit(o, BPF_ALU | BPF_LSH | BPF_K, REG_X, 0, 0, 2);
			return 0;
		}
		break;
	}
	case BPF_ST:
	case BPF_STX:
		if (in->k >= 16)
			break;
		emit(o, BPF_STX | BPF_MEM | BPF_W, BPF_REG_10,
		     BPF_CLASS(code) == BPF_ST ? REG_A : REG_X, (int16_t)M_OFF(in->k), 0);
		return 0;
	case BPF_ALU:
		if (BPF_OP(code) == BPF_NEG) {
			emit(o, BPF_ALU | BPF_NEG, REG_A, 0, 0, 0);
			return 0;
		}
		if ((BPF_OP(code) == BPF_DIV || BPF_OP(code) == BPF_MOD) && !src && !in->k) {
			snprintf(err, errlen, "classic instruction %zu divides by 0", i);
			return -EINVAL;
		}
		if ((BPF_OP(code) == BPF_DIV || BPF_OP(code) == BPF_MOD) && src) /* by X = 0: 0 */
			jump(o, BPF_JMP32 | BPF_JEQ | BPF_K, REG_X, 0, 0, TO_REJECT);
		if ((BPF_OP(code) == BPF_LSH || BPF_OP(code) == BPF_RSH) && !src && in->k >= 32) {
			snprintf(err, errlen, "classic instruction %zu shifts by %u bits", i,
				 in->k);
			return -EINVAL;
		}
		if ((BPF_OP(code) == BPF_LSH || BPF_OP(code) == BPF_RSH) && src) {
			shift_by_x(o, (uint8_t)BPF_OP(code));
			return 0;
		}
		switch (BPF_OP(code)) {
		case BPF_ADD:
		case BPF_SUB:
		case BPF_MUL:
		case BPF_DIV:
		case BPF_MOD:
		case BPF_AND:
		case BPF_OR:
		case BPF_XOR:
		case BPF_LSH:
		case BPF_RSH:
			emit(o, (uint8_t)(BPF_ALU | BPF_OP(code) | BPF_SRC(code)), REG_A, src, 0,
			     (int32_t)in->k);
			return 0;
		}
		break;
	case BPF_JMP:
		if (BPF_OP(code) == BPF_JA) {
			long to = next + (int32_t)in->k;

			if (to < 0 || to >= (long)n)
				break;
			if (to <= (long)i)
				jump_back(o, to);
			else
				jump(o, BPF_JMP | BPF_JA, 0, 0, 0, to);
			return 0;
		}
		if (BPF_OP(code) != BPF_JEQ && BPF_OP(code) != BPF_JGT && BPF_OP(code) != BPF_JGE &&
		    BPF_OP(code) != BPF_JSET)
			break;
		if (next + in->jt >= (long)n || next + in->jf >= (long)n)
			break;
		jump(o, (uint8_t)(BPF_JMP32 | BPF_OP(code) | BPF_SRC(code)), REG_A, src,
		     (int32_t)in->k, next + in->jt);
		if (in->jf)
			jump(o, BPF_JMP | BPF_JA, 0, 0, 0, next + in->jf);
		return 0;
	case BPF_RET:
		if (BPF_RVAL(code) == BPF_K) {
			jump(o, BPF_JMP | BPF_JA, 0, 0, 0, in->k ? TO_MATCH : TO_REJECT);
			return 0;
		}
		if (BPF_RVAL(code) == BPF_A) {
			jump(o, BPF_JMP32 | BPF_JNE | BPF_K, REG_A, 0, 0, TO_MATCH);
			jump(o, BPF_JMP | BPF_JA, 0, 0, 0, TO_REJECT);
			return 0;
		}
		break;
	case BPF_MISC:
		if (BPF_MISCOP(code) == BPF_TAX) {
			emit(o, BPF_ALU | BPF_MOV | BPF_X, REG_X, REG_A, 0, 0);
			return 0;
		}
		if (BPF_MISCOP(code) == BPF_TXA) {
			emit(o, BPF_ALU | BPF_MOV | BPF_X, REG_A, REG_X, 0, 0);
			return 0;
		}
		break;
	}
	snprintf(err, errlen, "classic instruction %zu (code 0x%04x, k %u) is not one flowtop runs",
		 i, code, in->k);
	return -EINVAL;
}

int cbpf_translate(const struct expr_insn *prog, size_t n, unsigned start, size_t match_len,
		   struct bpf_insn *out, size_t cap, char *err, size_t errlen)
{
	struct out o = { .insns = out, .cap = cap, .start = start };
	size_t *at = calloc(n + 1, sizeof(*at)), i;
	int ret = 0;

	/* every jump a classic instruction makes: at most three (a load's two, a
	 * division's and a comparison's two, a jump back's two) */
	o.fix = calloc(3 * n + 1, sizeof(*o.fix));
	if (!at || !o.fix) {
		snprintf(err, errlen, "out of memory");
		ret = -ENOMEM;
		goto out;
	}
	if (!n || BPF_CLASS(prog[n - 1].code) != BPF_RET) {
		snprintf(err, errlen, "the classic program does not end in a return");
		ret = -EINVAL;
		goto out;
	}
	/* classic BPF starts with A, X and M[] at 0 */
	emit(&o, BPF_ALU | BPF_MOV | BPF_K, REG_A, 0, 0, 0);
	emit(&o, BPF_ALU | BPF_MOV | BPF_K, REG_X, 0, 0, 0);
	for (i = 0; i < 8; i++)
		emit(&o, BPF_ST | BPF_MEM | BPF_DW, BPF_REG_10, 0, (int16_t)(-64 + 8 * (int)i), 0);
	emit(&o, BPF_ALU64 | BPF_MOV | BPF_K, BPF_REG_0, 0, 0,
	     CBPF_LOOPS + 1); /* the last rejects */
	emit(&o, BPF_STX | BPF_MEM | BPF_DW, BPF_REG_10, BPF_REG_0, LOOP_OFF, 0);
	for (i = 0; i < n && !ret; i++) {
		at[i] = o.n;
		ret = one(&o, &prog[i], i, n, err, errlen);
	}
	if (ret)
		goto out;
	if (o.full) {
		snprintf(err, errlen, "the expression takes more than %zu eBPF instructions", cap);
		ret = -E2BIG;
		goto out;
	}
	for (i = 0; i < o.nfix; i++) {
		long to = o.fix[i].to;
		size_t target = to == TO_MATCH ? o.n : to == TO_REJECT ? o.n + match_len : at[to];
		long off = (long)target - (long)o.fix[i].at - 1;

		if (off < INT16_MIN || off > INT16_MAX) {
			snprintf(err, errlen,
				 "the expression's program is too long to jump across");
			ret = -E2BIG;
			goto out;
		}
		out[o.fix[i].at].off = (int16_t)off;
	}
	ret = (int)o.n;
out:
	free(at);
	free(o.fix);
	return ret;
}
