/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* convo.h: the conversations of one focused address: per peer, what the focus sent to it
 * and received from it (a host table keyed by the peer, rx and tx the focus's), and the
 * focus's traffic by protocol. Or of one focused port (a flow_key_port() key): per host
 * that used it, what it sent and received on it (rx and tx the host's, each frame in
 * both its hosts' entries). Fed the frames the rings carry while it exists, so it
 * counts from the moment it was made; frames that took the spill map (a full ring) carry
 * no pair and are left out. Knows nothing of BPF or curses: unit tests drive it. */
#ifndef FLOWTOP_CONVO_H
#define FLOWTOP_CONVO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "hosttab.h"

#define CONVO_DEFAULT_PEERS 4096 /* peers held; beyond that the idlest folds into "other" */

enum convo_proto {
	CONVO_TCP,
	CONVO_UDP,
	CONVO_ICMP, /* ICMP and ICMPv6 */
	CONVO_OTHER,
	CONVO__PROTOS,
};

struct convo_proto_counts {
	uint64_t packets, bytes;	     /* since the view opened */
	uint64_t delta_packets, delta_bytes; /* in the last sample */
	uint64_t pending_packets, pending_bytes;
};

struct convo;

/* The conversations of focus, an address, or with of_port a port's key (flow_key_port():
 * an IPv6 address may look like one), at most max_peers peers. NULL with errno set. */
struct convo *convo_new(const struct flow_key *focus, bool of_port, size_t max_peers);
void convo_free(struct convo *c);

const struct flow_key *convo_focus(const struct convo *c);

/* Frames from src to dst, `bytes` in all, carrying IP protocol `proto` and ports
 * (FLOWTOP_PORTS_*; 0 where not counted): counted when the focus is one end (a frame to
 * itself counts once, as sent), or a focused port is either of their ports (its
 * protocol's "no port": they have none). */
void convo_frames(struct convo *c, const struct flow_key *src, const struct flow_key *dst,
		  uint8_t proto, uint64_t ports, uint32_t frames, uint64_t bytes);
/* Whether the focus is a port: each frame is then in two entries, its hosts'. */
bool convo_of_port(const struct convo *c);

/* The ports of a peer's frames with an address focus (struct bpf_maps.ports): of each
 * frame its lower port (as a rule the service's: the other is a client's ephemeral one),
 * an ICMP message's type, or its protocol's "no port", as port keys (flow_key_port()),
 * up to CONVO_PEER_PORTS in the order first seen; how many into keys, and in *more
 * whether the frames used others too. A peer's entry keeps them in its cb, which a
 * convo's peers table holds for nothing else. */
#define CONVO_PEER_PORTS 3
size_t convo_peer_ports(const struct host *peer, struct flow_key keys[CONVO_PEER_PORTS],
			bool *more);

/* Closes the sample, as hosttab_end() does for the peers. */
void convo_end(struct convo *c, double interval);

/* The peers: rx is what the focus received from the peer, tx what it sent to it. */
const struct hosttab *convo_peers(const struct convo *c);
const struct convo_proto_counts *convo_protos(const struct convo *c); /* [CONVO__PROTOS] */
const char *convo_proto_name(enum convo_proto p);

/* The class of an IP protocol number. */
enum convo_proto convo_proto_of(uint8_t ipproto);

#endif
