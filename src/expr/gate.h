/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* gate.h: a filter expression counted in the kernel, live. Sockets attach flowtop_gate
 * (the BPF object's) in flowtop_count's place; it works out the frame's link header and
 * length as flowtop_count does and tail-calls the expression's judge, loaded here: the
 * expression's translation (src/expr/cbpf.h) for the frame's kind of link, then a tail call
 * into flowtop_count when it matches, or else into flowtop_rejected, which counts the
 * frame in its slot's `filtered` counters alone (bpf/flowtop.h's enum
 * flowtop_gate_prog). Without an expression there is no gate. */
#ifndef FLOWTOP_GATE_H
#define FLOWTOP_GATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct flowtop_bpf;
struct gate;

/* Compiles text (pcap-filter(7)) for both kinds of link flowtop counts on: with an
 * Ethernet header (Ethernet, loopback: libpcap's DLT_EN10MB) and without one (tun,
 * WireGuard, IP tunnels: DLT_RAW), with netmask for 'ip broadcast' (expr_compile()'s),
 * and loads its judge for skel's flowtop_gate, not yet in force. NULL, the reason in
 * err, when it compiles for neither kind (libpcap's reason), or the kernel refuses the
 * program. */
struct gate *gate_new(struct flowtop_bpf *skel, const char *text, uint32_t netmask, char *err,
		      size_t errlen);
void gate_free(struct gate *g);
/* Puts g's judge in force for every socket that attaches flowtop_gate, in one step
 * (the gate_progs array's entry replaced). 0 or -errno. */
int gate_install(const struct gate *g);
/* Takes the judge out of skel's gate_progs (no socket attaches flowtop_gate any more). */
void gate_uninstall(struct flowtop_bpf *skel);

/* The program a packet socket attaches: flowtop_gate. */
int gate_prog_fd(const struct gate *g);
const char *gate_text(const struct gate *g);
/* The netmask it was compiled with. */
uint32_t gate_netmask(const struct gate *g);
/* Whether it judges frames of an interface with hlen bytes of link header (0: none);
 * false, with why in err (libpcap's reason: "ether host" without an Ethernet
 * header), when it does not. */
bool gate_fits(const struct gate *g, unsigned hlen, const char *ifname, char *err, size_t errlen);

#endif
