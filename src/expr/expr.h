/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* expr.h: a filter expression (pcap-filter(7), tcpdump's syntax) compiled by libpcap's
 * own compiler for a link type into a classic BPF program, and libpcap's own verdict on
 * a frame. Kept apart from the eBPF side: pcap's struct bpf_insn is not the kernel's. */
#ifndef FLOWTOP_EXPR_H
#define FLOWTOP_EXPR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* One classic BPF instruction, as libpcap and the kernel's struct sock_filter lay it. */
struct expr_insn {
	uint16_t code;
	uint8_t jt, jf;
	uint32_t k;
};

struct expr;

/* No netmask: libpcap's PCAP_NETMASK_UNKNOWN ('ip broadcast' then refused). */
#define EXPR_NETMASK_UNKNOWN 0xffffffffu

/* Compiles text for link type dlt (a DLT_* number: DLT_EN10MB, DLT_RAW...), optimized,
 * with netmask for 'ip broadcast': the watched interface's IPv4 one in host order
 * (255.255.255.0 is 0xffffff00), what libpcap's code compares the loaded destination
 * with, or EXPR_NETMASK_UNKNOWN. (tcpdump hands pcap_compile() pcap_lookupnet()'s, in
 * network order: on a little-endian host its 'ip broadcast' tests the wrong octets,
 * libpcap pull request 1454.) NULL with libpcap's reason in err ("filter expression
 * 'x': ..."). */
struct expr *expr_compile(const char *text, int dlt, uint32_t netmask, char *err, size_t errlen);
/* Whether libpcap refuses text without a netmask and takes it with one ('ip broadcast'). */
bool expr_needs_netmask(const char *text);
void expr_free(struct expr *e);

/* The classic program: n instructions. */
const struct expr_insn *expr_insns(const struct expr *e, size_t *n);

/* libpcap's own interpreter on a frame of the expression's link type (caplen bytes
 * held, wirelen on the wire): whether the expression keeps it. */
/* libpcap's interpreter on a classic program of n instructions (the same, for one the
 * caller wrote). */
bool expr_insns_match(const struct expr_insn *prog, size_t n, const uint8_t *frame, uint32_t caplen,
		      uint32_t wirelen);
bool expr_matches(const struct expr *e, const uint8_t *frame, uint32_t caplen, uint32_t wirelen);

#endif
