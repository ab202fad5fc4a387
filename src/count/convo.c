// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* convo.c: one focus's peers and protocols, from the ring's (src, dst, proto) records. */
#include "convo.h"

#include <errno.h>
#include <netinet/in.h>
#include <stdlib.h>

struct convo {
	struct flow_key focus;
	struct hosttab *peers;
	struct convo_proto_counts proto[CONVO__PROTOS];
};

struct convo *convo_new(const struct flow_key *focus, size_t max_peers)
{
	struct convo *c = calloc(1, sizeof(*c));

	if (!c)
		return NULL;
	c->focus = *focus;
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

void convo_frames(struct convo *c, const struct flow_key *src, const struct flow_key *dst,
		  uint8_t proto, uint32_t frames, uint64_t bytes)
{
	struct convo_proto_counts *p;
	int sent = flow_key_eq(src, &c->focus);

	if (!sent && !flow_key_eq(dst, &c->focus))
		return;
	/* the peer's entry, with rx and tx seen from the focus */
	hosttab_add_frames(c->peers, sent ? dst : src, sent, frames, bytes, 0);
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
