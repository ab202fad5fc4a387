// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* convo.c: one focus's peers and protocols, from the ring's (src, dst, proto, ports)
 * records. */
#include "convo.h"

#include <errno.h>
#include <netinet/in.h>
#include <stdlib.h>

struct convo {
	struct flow_key focus;
	bool of_port; /* the focus is a port's key */
	struct hosttab *peers;
	struct convo_proto_counts proto[CONVO__PROTOS];
};

struct convo *convo_new(const struct flow_key *focus, bool of_port, size_t max_peers)
{
	struct convo *c = calloc(1, sizeof(*c));

	if (!c)
		return NULL;
	c->focus = *focus;
	c->of_port = of_port;
	c->peers = hosttab_new(max_peers);
	if (!c->peers) {
		free(c);
		errno = ENOMEM;
		return NULL;
	}
	return c;
}

void convo_free(struct convo *c)
{
	if (!c)
		return;
	hosttab_free(c->peers);
	free(c);
}

const struct flow_key *convo_focus(const struct convo *c)
{
	return &c->focus;
}

enum convo_proto convo_proto_of(uint8_t ipproto)
{
	switch (ipproto) {
	case IPPROTO_TCP:
		return CONVO_TCP;
	case IPPROTO_UDP:
		return CONVO_UDP;
	case IPPROTO_ICMP:
	case IPPROTO_ICMPV6:
		return CONVO_ICMP;
	default:
		return CONVO_OTHER;
	}
}

const char *convo_proto_name(enum convo_proto p)
{
	static const char *const names[CONVO__PROTOS] = { "TCP", "UDP", "ICMP", "other" };

	return p < CONVO__PROTOS ? names[p] : "?";
}

bool convo_of_port(const struct convo *c)
{
	return c->of_port;
}

/* Whether frames of proto and ports are the focused port's. */
static bool on_port(const struct convo *c, uint8_t proto, uint64_t ports)
{
	uint16_t port = flow_key_port_number(&c->focus);

	if (proto != flow_key_port_proto(&c->focus))
		return false;
	if (!flow_key_port_known(&c->focus))
		return !(ports & FLOWTOP_PORTS_KNOWN);
	return (ports & FLOWTOP_PORTS_KNOWN) &&
	       (FLOWTOP_PORTS_SRC(ports) == port || FLOWTOP_PORTS_DST(ports) == port);
}

/* A peer's ports in its cb: CONVO_PEER_PORTS entries of 4 bytes, the protocol, the
 * port (big endian), and PEER_PORT_* flags. */
#define PEER_PORT_USED	1
#define PEER_PORT_KNOWN 2 /* else the protocol's "no port" */
#define PEER_PORT_MORE	4 /* (on the last) the frames used others too */
_Static_assert(CONVO_PEER_PORTS * 4 <= HOST_CB_LEN && WAITER_CB_LEN >= 4,
	       "a peer's ports fit its cb, and its first what its door keeps");

/* Notes the port of frames of proto and ports among the peer's; a peer waiting to be let
 * into a full table notes its first in what its door keeps for it. */
static void note_peer_port(struct hosttab *peers, const struct flow_key *peer, uint8_t proto,
			   uint64_t ports)
{
	bool known = ports & FLOWTOP_PORTS_KNOWN;
	uint16_t s = FLOWTOP_PORTS_SRC(ports), d = FLOWTOP_PORTS_DST(ports);
	uint16_t port = known ? (s < d ? s : d) : 0;
	const struct host *h = hosttab_find(peers, peer);
	unsigned char *cb = h ? hosttab_own(peers, h)->cb : hosttab_waiter_cb(peers, peer);
	int i, n = h ? CONVO_PEER_PORTS : WAITER_CB_LEN / 4;

	if (!cb)
		return;
	for (i = 0; i < n; i++) {
		unsigned char *e = cb + 4 * i;

		if (!(e[3] & PEER_PORT_USED)) {
			e[0] = proto;
			e[1] = (unsigned char)(port >> 8);
			e[2] = (unsigned char)port;
			e[3] = PEER_PORT_USED | (known ? PEER_PORT_KNOWN : 0);
			return;
		}
		if (e[0] == proto && !(e[3] & PEER_PORT_KNOWN) == !known &&
		    (e[1] << 8 | e[2]) == port)
			return;
	}
	if (n == CONVO_PEER_PORTS)
		cb[4 * (CONVO_PEER_PORTS - 1) + 3] |= PEER_PORT_MORE;
}

size_t convo_peer_ports(const struct host *peer, struct flow_key keys[CONVO_PEER_PORTS], bool *more)
{
	const unsigned char *cb = peer->cb;
	size_t n;

	for (n = 0; n < CONVO_PEER_PORTS && (cb[4 * n + 3] & PEER_PORT_USED); n++)
		flow_key_port(&keys[n], cb[4 * n], (uint16_t)(cb[4 * n + 1] << 8 | cb[4 * n + 2]),
			      cb[4 * n + 3] & PEER_PORT_KNOWN);
	*more = cb[4 * (CONVO_PEER_PORTS - 1) + 3] & PEER_PORT_MORE;
	return n;
}

void convo_frames(struct convo *c, const struct flow_key *src, const struct flow_key *dst,
		  uint8_t proto, uint64_t ports, uint32_t frames, uint64_t bytes)
{
	struct convo_proto_counts *p;
	int sent = flow_key_eq(src, &c->focus);

	if (c->of_port) { /* both hosts' entries, rx and tx their own */
		if (!on_port(c, proto, ports))
			return;
		hosttab_add_frames(c->peers, src, 1, frames, bytes, 0);
		hosttab_add_frames(c->peers, dst, 0, frames, bytes, 0);
	} else if (sent || flow_key_eq(dst, &c->focus)) {
		/* the peer's entry, with rx and tx seen from the focus, and its ports */
		if (!hosttab_add_frames(c->peers, sent ? dst : src, sent, frames, bytes, 0))
			note_peer_port(c->peers, sent ? dst : src, proto, ports);
	} else {
		return;
	}
	p = &c->proto[convo_proto_of(proto)];
	p->pending_packets += frames;
	p->pending_bytes += bytes;
}

void convo_end(struct convo *c, double interval)
{
	int i;

	hosttab_end(c->peers, interval);
	for (i = 0; i < CONVO__PROTOS; i++) {
		struct convo_proto_counts *p = &c->proto[i];

		p->delta_packets = p->pending_packets;
		p->delta_bytes = p->pending_bytes;
		p->packets += p->pending_packets;
		p->bytes += p->pending_bytes;
		p->pending_packets = p->pending_bytes = 0;
	}
}

const struct hosttab *convo_peers(const struct convo *c)
{
	return c->peers;
}

const struct convo_proto_counts *convo_protos(const struct convo *c)
{
	return c->proto;
}
