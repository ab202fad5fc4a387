/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* gate.h: a filter expression counted in the kernel, live: a second socket filter, in
 * front of the counting program and loaded beside it, that runs the expression's
 * translation (src/cbpf.h) for the frame's link type and tail-calls flowtop_count when
 * it matches, or else counts the frame in its slot's `filtered` counters alone. The
 * counting program is untouched: without an expression there is no gate. */
#ifndef FLOWTOP_GATE_H
#define FLOWTOP_GATE_H

#include <stdbool.h>
#include <stddef.h>

struct flowtop_bpf;
struct gate;

/* Compiles text (pcap-filter(7)) for both kinds of link flowtop counts on: with an
 * Ethernet header (Ethernet, loopback: libpcap's DLT_EN10MB) and without one (tun,
 * WireGuard, IP tunnels: DLT_RAW), and loads the gate in front of skel's counting
 * program. NULL, the reason in err, when it compiles for neither kind (libpcap's
 * reason), or the kernel refuses the program. */
struct gate *gate_new(struct flowtop_bpf *skel, const char *text, char *err, size_t errlen);
void gate_free(struct gate *g);

/* The program a packet socket attaches. */
int gate_prog_fd(const struct gate *g);
const char *gate_text(const struct gate *g);
/* Whether it judges frames of an interface with hlen bytes of link header (0: none);
 * false, with why in err (libpcap's reason: "ether host" without an Ethernet
 * header), when it does not. */
bool gate_fits(const struct gate *g, unsigned hlen, const char *ifname, char *err, size_t errlen);

#endif
