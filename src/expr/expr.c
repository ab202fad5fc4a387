// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* expr.c: filter expressions through libpcap (see expr.h). */
#include "expr.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <pcap/pcap.h>

struct expr {
	struct bpf_program prog;
};

_Static_assert(sizeof(struct expr_insn) == sizeof(struct bpf_insn), "classic BPF's layout");
_Static_assert(EXPR_NETMASK_UNKNOWN == PCAP_NETMASK_UNKNOWN, "libpcap's unknown netmask");

struct expr *expr_compile(const char *text, int dlt, uint32_t netmask, char *err, size_t errlen)
{
	pcap_t *dead = pcap_open_dead(dlt, 262144);
	struct expr *e = calloc(1, sizeof(*e));

	if (!dead || !e) {
		snprintf(err, errlen, "filter expression '%s': out of memory", text);
		goto fail;
	}
	if (pcap_compile(dead, &e->prog, text, 1, netmask)) {
		snprintf(err, errlen, "filter expression '%s': %s", text, pcap_geterr(dead));
		goto fail;
	}
	pcap_close(dead);
	return e;

fail:
	if (dead)
		pcap_close(dead);
	free(e);
	return NULL;
}

/* Any netmask stands in: libpcap only asks whether one is known. */
bool expr_needs_netmask(const char *text)
{
	static const int dlts[] = { DLT_EN10MB, DLT_RAW };
	const uint32_t any = 0xffffff00;
	struct expr *e;
	char err[8];
	size_t i;

	for (i = 0; i < sizeof(dlts) / sizeof(dlts[0]); i++) {
		e = expr_compile(text, dlts[i], EXPR_NETMASK_UNKNOWN, err, sizeof(err));
		if (e) {
			expr_free(e);
			return false;
		}
	}
	for (i = 0; i < sizeof(dlts) / sizeof(dlts[0]); i++) {
		e = expr_compile(text, dlts[i], any, err, sizeof(err));
		if (e) {
			expr_free(e);
			return true;
		}
	}
	return false;
}

void expr_free(struct expr *e)
{
	if (!e)
		return;
	pcap_freecode(&e->prog);
	free(e);
}

const struct expr_insn *expr_insns(const struct expr *e, size_t *n)
{
	*n = e->prog.bf_len;
	return (const struct expr_insn *)e->prog.bf_insns;
}

bool expr_matches(const struct expr *e, const uint8_t *frame, uint32_t caplen, uint32_t wirelen)
{
	return bpf_filter(e->prog.bf_insns, frame, wirelen, caplen) != 0;
}

bool expr_insns_match(const struct expr_insn *prog, size_t n, const uint8_t *frame, uint32_t caplen,
		      uint32_t wirelen)
{
	(void)n; /* bpf_filter() runs to a return */
	return bpf_filter((const struct bpf_insn *)prog, frame, wirelen, caplen) != 0;
}
