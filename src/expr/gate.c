// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* gate.c: the expression's judge (see gate.h), assembled around the translations: what
 * flowtop_gate worked out of the frame (its link header, its length on the wire), the
 * translation for its kind of link, then a tail call into flowtop_count or
 * flowtop_rejected. */
#include "gate.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <pcap/dlt.h>

#include "flowtop.h"
#include "bpf_load.h"
#include "expr.h"
#include "judge.h"

#define GATE_MAX BPF_MAXINSNS /* instructions of the whole judge at most */

struct gate {
	char text[4096];
	int judge_fd;			 /* the expression's judge, -1 until loaded */
	int progs_fd;			 /* the gate_progs array it goes into */
	int gate_fd;			 /* flowtop_gate, which sockets attach */
	uint32_t netmask;		 /* compiled with it (expr_compile()'s) */
	bool eth, raw;			 /* the kinds of link it judges */
	char why_eth[512], why_raw[512]; /* why not, libpcap's words */
};

struct gate *gate_new(struct flowtop_bpf *skel, const char *text, uint32_t netmask, char *err,
		      size_t errlen)
{
	static char log[1 << 16];
	LIBBPF_OPTS(bpf_prog_load_opts, opts, .log_buf = log, .log_size = sizeof(log));
	struct gate *g = calloc(1, sizeof(*g));
	struct bpf_insn *insns = calloc(GATE_MAX, sizeof(*insns));
	struct expr *eth = NULL, *raw = NULL;
	int n;

	if (g)
		g->judge_fd = -1;
	if (!g || !insns) {
		snprintf(err, errlen, "out of memory");
		goto fail;
	}
	g->progs_fd = bpf_load_gate_progs_fd(skel);
	g->gate_fd = bpf_load_gate_fd(skel);
	g->netmask = netmask;
	snprintf(g->text, sizeof(g->text), "%s", text);
	eth = expr_compile(text, DLT_EN10MB, netmask, g->why_eth, sizeof(g->why_eth));
	raw = expr_compile(text, DLT_RAW, netmask, g->why_raw, sizeof(g->why_raw));
	g->eth = eth != NULL, g->raw = raw != NULL;
	if (!eth && !raw) {
		snprintf(err, errlen, "%s", g->why_eth);
		goto fail;
	}
	n = judge_assemble(insns, GATE_MAX, eth, raw, g->progs_fd, err, errlen);
	if (n < 0)
		goto fail;
	g->judge_fd = bpf_prog_load(BPF_PROG_TYPE_SOCKET_FILTER, "flowtop_judge", "GPL", insns,
				    (size_t)n, &opts);
	if (g->judge_fd < 0) {
		size_t len = strlen(log);

		snprintf(err, errlen,
			 "filter expression '%s': the kernel refuses its program: %s%s%.200s", text,
			 strerror(errno), len ? ": " : "", log + (len > 200 ? len - 200 : 0));
		goto fail;
	}
	expr_free(eth);
	expr_free(raw);
	free(insns);
	return g;

fail:
	expr_free(eth);
	expr_free(raw);
	free(insns);
	gate_free(g);
	return NULL;
}

int gate_install(const struct gate *g)
{
	__u32 key = FLOWTOP_GATE_JUDGE;

	return bpf_map_update_elem(g->progs_fd, &key, &g->judge_fd, BPF_ANY) ? -errno : 0;
}

void gate_uninstall(struct flowtop_bpf *skel)
{
	__u32 key = FLOWTOP_GATE_JUDGE;

	bpf_map_delete_elem(bpf_load_gate_progs_fd(skel), &key);
}

void gate_free(struct gate *g)
{
	if (!g)
		return;
	if (g->judge_fd >= 0)
		close(g->judge_fd);
	free(g);
}

int gate_prog_fd(const struct gate *g)
{
	return g->gate_fd;
}

const char *gate_text(const struct gate *g)
{
	return g->text;
}

uint32_t gate_netmask(const struct gate *g)
{
	return g->netmask;
}

bool gate_fits(const struct gate *g, unsigned hlen, const char *ifname, char *err, size_t errlen)
{
	if (hlen ? g->eth : g->raw)
		return true;
	snprintf(err, errlen, "'%s' has %s link header: %s", ifname, hlen ? "an Ethernet" : "no",
		 hlen ? g->why_eth : g->why_raw);
	return false;
}
