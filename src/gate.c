// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* gate.c: the expression's gate program (see gate.h), assembled around the
 * translations: the frame's slot and link header from the links map (as the counting
 * program finds them), its length on the wire, the translation for its kind of link,
 * then a tail call into flowtop_count or the `filtered` counters. */
#include "gate.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <linux/if_packet.h>

#include "../bpf/flowtop.h"
#include "bpf_load.h"
#include "cbpf.h"
#include "expr.h"

#define DLT_EN10MB 1 /* libpcap's link types */
#define DLT_RAW	   12
#define GATE_MAX   (BPF_MAXINSNS / 2) /* instructions of the whole gate at most */
#define KEY_OFF	   (-80)	      /* the links map's key, on the stack below cbpf's */
#define SLOT_OFF   (-88)	      /* the frame's slot */
#define LOOPBACK   1		      /* lo's ifindex in every namespace */
#define VLAN_HLEN  4

struct gate {
	char text[4096];
	int prog_fd, tail_fd;
	bool eth, raw;			 /* the kinds of link it judges */
	char why_eth[512], why_raw[512]; /* why not, libpcap's words */
};

struct code {
	struct bpf_insn *i;
	size_t n;
};

static void op(struct code *c, uint8_t code, uint8_t dst, uint8_t src, int16_t off, int32_t imm)
{
	if (c->n < GATE_MAX)
		c->i[c->n] = (struct bpf_insn){ code, dst, src, off, imm };
	c->n++;
}

/* dst = the map with fd (BPF_LD_IMM64 of a map fd: two instructions) */
static void map_fd(struct code *c, uint8_t dst, int fd)
{
	op(c, BPF_LD | BPF_DW | BPF_IMM, dst, BPF_PSEUDO_MAP_FD, 0, fd);
	op(c, 0, 0, 0, 0, 0);
}

#define CTX(field) (int16_t) offsetof(struct __sk_buff, field)

/* The translation of e for link start `start`, its match one jump to `match` and its
 * rejection one to `reject`, both patched once known (their places returned). */
static int body(struct code *c, const struct expr *e, unsigned start, size_t *jumps, char *err,
		size_t errlen)
{
	const struct expr_insn *prog;
	size_t n;
	int len;

	prog = expr_insns(e, &n);
	len = cbpf_translate(prog, n, start, 1, c->i + c->n, GATE_MAX - c->n, err, errlen);
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

/* Assembles the gate from the translations (NULL for a kind it does not judge). */
static int assemble(struct code *c, const struct expr *eth, const struct expr *raw, int links_fd,
		    int stats_fd, int tail_fd, char *err, size_t errlen)
{
	size_t choose, jeth[2] = { 0 }, jraw[2] = { 0 }, eth_at = 0, raw_at = 0, match, reject, k;
	int ret;

	op(c, BPF_ALU64 | BPF_MOV | BPF_X, CBPF_REG_CTX, BPF_REG_1, 0, 0);
	/* lo hands an unbound socket each frame twice: its sent copy is not a frame (the
	 * counting program drops it too) */
	op(c, BPF_LDX | BPF_MEM | BPF_W, BPF_REG_2, CBPF_REG_CTX, CTX(ifindex), 0);
	op(c, BPF_JMP | BPF_JNE | BPF_K, BPF_REG_2, 0, 4, LOOPBACK);
	op(c, BPF_LDX | BPF_MEM | BPF_W, BPF_REG_2, CBPF_REG_CTX, CTX(pkt_type), 0);
	op(c, BPF_JMP | BPF_JNE | BPF_K, BPF_REG_2, 0, 2, PACKET_OUTGOING);
	op(c, BPF_ALU64 | BPF_MOV | BPF_K, BPF_REG_0, 0, 0, 0);
	op(c, BPF_JMP | BPF_EXIT, 0, 0, 0, 0);
	/* the frame's slot and link header, from the links map as flowtop_count reads it */
	op(c, BPF_LDX | BPF_MEM | BPF_W, BPF_REG_2, CBPF_REG_CTX, CTX(ifindex), 0);
	op(c, BPF_ALU | BPF_MOD | BPF_K, BPF_REG_2, 0, 0, FLOWTOP_LINK_INDEX);
	op(c, BPF_STX | BPF_MEM | BPF_W, BPF_REG_10, BPF_REG_2, KEY_OFF, 0);
	op(c, BPF_ST | BPF_MEM | BPF_W, BPF_REG_10, 0, SLOT_OFF, FLOWTOP_SLOT_NONE);
	op(c, BPF_ALU64 | BPF_MOV | BPF_K, BPF_REG_8, 0, 0, 0);
	map_fd(c, BPF_REG_1, links_fd);
	op(c, BPF_ALU64 | BPF_MOV | BPF_X, BPF_REG_2, BPF_REG_10, 0, 0);
	op(c, BPF_ALU64 | BPF_ADD | BPF_K, BPF_REG_2, 0, 0, KEY_OFF);
	op(c, BPF_JMP | BPF_CALL, 0, 0, 0, BPF_FUNC_map_lookup_elem);
	op(c, BPF_JMP | BPF_JEQ | BPF_K, BPF_REG_0, 0, 6, 0);
	op(c, BPF_LDX | BPF_MEM | BPF_W, BPF_REG_3, BPF_REG_0, offsetof(struct flow_link, ifindex),
	   0);
	op(c, BPF_LDX | BPF_MEM | BPF_W, BPF_REG_4, CBPF_REG_CTX, CTX(ifindex), 0);
	op(c, BPF_JMP | BPF_JNE | BPF_X, BPF_REG_3, BPF_REG_4, 3, 0);
	op(c, BPF_LDX | BPF_MEM | BPF_H, BPF_REG_3, BPF_REG_0, offsetof(struct flow_link, slot), 0);
	op(c, BPF_STX | BPF_MEM | BPF_W, BPF_REG_10, BPF_REG_3, SLOT_OFF, 0);
	op(c, BPF_LDX | BPF_MEM | BPF_H, BPF_REG_8, BPF_REG_0, offsetof(struct flow_link, hlen), 0);
	/* its length on the wire, as the counting program has it: the link header and an
	 * outer tag the kernel moved into metadata included */
	op(c, BPF_LDX | BPF_MEM | BPF_W, CBPF_REG_LEN, CBPF_REG_CTX, CTX(len), 0);
	op(c, BPF_ALU64 | BPF_ADD | BPF_X, CBPF_REG_LEN, BPF_REG_8, 0, 0);
	op(c, BPF_LDX | BPF_MEM | BPF_W, BPF_REG_3, CBPF_REG_CTX, CTX(vlan_present), 0);
	op(c, BPF_JMP | BPF_JEQ | BPF_K, BPF_REG_3, 0, 1, 0);
	op(c, BPF_ALU64 | BPF_ADD | BPF_K, CBPF_REG_LEN, 0, 0, VLAN_HLEN);
	choose = c->n;
	op(c, BPF_JMP | BPF_JEQ | BPF_K, BPF_REG_8, 0, 0, 0); /* no link header: raw */
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
	op(c, BPF_ALU64 | BPF_MOV | BPF_X, BPF_REG_1, CBPF_REG_CTX, 0, 0);
	map_fd(c, BPF_REG_2, tail_fd);
	op(c, BPF_ALU64 | BPF_MOV | BPF_K, BPF_REG_3, 0, 0, 0);
	op(c, BPF_JMP | BPF_CALL, 0, 0, 0, BPF_FUNC_tail_call);
	op(c, BPF_ALU64 | BPF_MOV | BPF_K, BPF_REG_0, 0, 0, 0); /* the tail call failed */
	op(c, BPF_JMP | BPF_EXIT, 0, 0, 0, 0);
	/* rejected: its slot's `filtered` counters alone */
	reject = c->n;
	map_fd(c, BPF_REG_1, stats_fd);
	op(c, BPF_ALU64 | BPF_MOV | BPF_X, BPF_REG_2, BPF_REG_10, 0, 0);
	op(c, BPF_ALU64 | BPF_ADD | BPF_K, BPF_REG_2, 0, 0, SLOT_OFF);
	op(c, BPF_JMP | BPF_CALL, 0, 0, 0, BPF_FUNC_map_lookup_elem);
	op(c, BPF_JMP | BPF_JEQ | BPF_K, BPF_REG_0, 0, 6, 0);
	op(c, BPF_LDX | BPF_MEM | BPF_DW, BPF_REG_1, BPF_REG_0,
	   offsetof(struct flow_stats, filtered), 0);
	op(c, BPF_ALU64 | BPF_ADD | BPF_K, BPF_REG_1, 0, 0, 1);
	op(c, BPF_STX | BPF_MEM | BPF_DW, BPF_REG_0, BPF_REG_1,
	   offsetof(struct flow_stats, filtered), 0);
	op(c, BPF_LDX | BPF_MEM | BPF_DW, BPF_REG_1, BPF_REG_0,
	   offsetof(struct flow_stats, filtered_bytes), 0);
	op(c, BPF_ALU64 | BPF_ADD | BPF_X, BPF_REG_1, CBPF_REG_LEN, 0, 0);
	op(c, BPF_STX | BPF_MEM | BPF_DW, BPF_REG_0, BPF_REG_1,
	   offsetof(struct flow_stats, filtered_bytes), 0);
	op(c, BPF_ALU64 | BPF_MOV | BPF_K, BPF_REG_0, 0, 0, 0);
	op(c, BPF_JMP | BPF_EXIT, 0, 0, 0, 0);
	if (c->n > GATE_MAX) {
		snprintf(err, errlen, "the expression takes more than %d instructions", GATE_MAX);
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
	return 0;
}

struct gate *gate_new(struct flowtop_bpf *skel, const char *text, char *err, size_t errlen)
{
	static char log[1 << 16];
	LIBBPF_OPTS(bpf_prog_load_opts, opts, .log_buf = log, .log_size = sizeof(log));
	struct gate *g = calloc(1, sizeof(*g));
	struct code c = { .i = calloc(GATE_MAX, sizeof(struct bpf_insn)) };
	struct expr *eth = NULL, *raw = NULL;
	struct bpf_maps maps;
	__u32 zero = 0;
	int count_fd = bpf_load_prog_fd(skel), ret;

	if (!g || !c.i) {
		snprintf(err, errlen, "out of memory");
		goto fail;
	}
	g->prog_fd = g->tail_fd = -1;
	snprintf(g->text, sizeof(g->text), "%s", text);
	eth = expr_compile(text, DLT_EN10MB, g->why_eth, sizeof(g->why_eth));
	raw = expr_compile(text, DLT_RAW, g->why_raw, sizeof(g->why_raw));
	g->eth = eth != NULL, g->raw = raw != NULL;
	if (!eth && !raw) {
		snprintf(err, errlen, "%s", g->why_eth);
		goto fail;
	}
	bpf_load_maps(skel, &maps);
	g->tail_fd = bpf_map_create(BPF_MAP_TYPE_PROG_ARRAY, "flowtop_gate", 4, 4, 1, NULL);
	if (g->tail_fd < 0 || bpf_map_update_elem(g->tail_fd, &zero, &count_fd, BPF_ANY)) {
		snprintf(err, errlen, "cannot make the expression's tail call: %s",
			 strerror(errno));
		goto fail;
	}
	ret = assemble(&c, eth, raw, maps.links_fd, maps.stats_fd, g->tail_fd, err, errlen);
	if (ret)
		goto fail;
	g->prog_fd =
	    bpf_prog_load(BPF_PROG_TYPE_SOCKET_FILTER, "flowtop_gate", "GPL", c.i, c.n, &opts);
	if (g->prog_fd < 0) {
		size_t len = strlen(log);

		snprintf(err, errlen,
			 "filter expression '%s': the kernel refuses its program: %s%s%.200s", text,
			 strerror(errno), len ? ": " : "", log + (len > 200 ? len - 200 : 0));
		goto fail;
	}
	expr_free(eth);
	expr_free(raw);
	free(c.i);
	return g;

fail:
	expr_free(eth);
	expr_free(raw);
	free(c.i);
	gate_free(g);
	return NULL;
}

void gate_free(struct gate *g)
{
	if (!g)
		return;
	if (g->prog_fd >= 0)
		close(g->prog_fd);
	if (g->tail_fd >= 0)
		close(g->tail_fd);
	free(g);
}

int gate_prog_fd(const struct gate *g)
{
	return g->prog_fd;
}

const char *gate_text(const struct gate *g)
{
	return g->text;
}

bool gate_fits(const struct gate *g, unsigned hlen, const char *ifname, char *err, size_t errlen)
{
	if (hlen ? g->eth : g->raw)
		return true;
	snprintf(err, errlen, "'%s' has %s link header: %s", ifname, hlen ? "an Ethernet" : "no",
		 hlen ? g->why_eth : g->why_raw);
	return false;
}
