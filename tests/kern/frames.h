/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* frames.h: crafted Ethernet frames for the kernel tests: each builder appends one header,
 * and every IP header built with its length left open declares all that follows it. */
#ifndef FLOWTOP_TEST_FRAMES_H
#define FLOWTOP_TEST_FRAMES_H

#include <arpa/inet.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <linux/if_ether.h>
#include <linux/ip.h>
#include <linux/ipv6.h>

struct frame {
	uint8_t b[1024];
	size_t len;
	struct {
		size_t pos; /* an IP header whose length field follows what is appended */
		bool v6;
	} ip[16];
	int nip;
};

/* Appends n bytes; every IP header built with its length left to us (ipv4(), ipv6())
 * then declares all that follows it, as on the wire. Cutting the frame later leaves the
 * lengths as they were, as a capture's snap length does. */
static inline void put(struct frame *f, const void *p, size_t n)
{
	int i;

	if (f->len + n > sizeof(f->b))
		abort();
	memcpy(f->b + f->len, p, n);
	f->len += n;
	for (i = 0; i < f->nip; i++) {
		size_t at = f->ip[i].pos + (f->ip[i].v6 ? 4 : 2);
		uint16_t v = htons((uint16_t)(f->len - f->ip[i].pos - (f->ip[i].v6 ? 40 : 0)));

		if (at + 2 <= f->len)
			memcpy(f->b + at, &v, 2);
	}
}

static inline void follow_length(struct frame *f, bool v6)
{
	if (f->nip < 16)
		f->ip[f->nip++] = (typeof(f->ip[0])){ f->len, v6 };
}

static inline void put16(struct frame *f, uint16_t v)
{
	v = htons(v);
	put(f, &v, 2);
}

static inline void eth(struct frame *f, uint16_t proto)
{
	static const uint8_t macs[12] = { 2, 0, 0, 0, 0, 2, 2, 0, 0, 0, 0, 1 };

	f->len = 0;
	f->nip = 0;
	put(f, macs, sizeof(macs));
	put16(f, proto);
}

static inline void tag(struct frame *f, uint16_t next)
{
	put16(f, 100); /* TCI: VLAN 100 */
	put16(f, next);
}

static inline void ipv4_full(struct frame *f, const char *src, const char *dst, uint8_t proto,
			     int ihl, uint16_t frag_off, int tot_len)
{
	struct iphdr h = { .version = 4, .ihl = (uint8_t)ihl, .ttl = 64, .protocol = proto };
	uint8_t opts[40];

	h.tot_len = htons((uint16_t)(tot_len >= 0 ? tot_len : 0));
	h.frag_off = htons(frag_off);
	inet_pton(AF_INET, src, &h.saddr);
	inet_pton(AF_INET, dst, &h.daddr);
	if (tot_len < 0)
		follow_length(f, false);
	put(f, &h, sizeof(h));
	if (ihl > 5) {
		memset(opts, 1 /* NOP */, sizeof(opts));
		put(f, opts, (size_t)(ihl - 5) * 4);
	}
}

static inline void ipv4(struct frame *f, const char *src, const char *dst, uint8_t proto)
{
	ipv4_full(f, src, dst, proto, 5, 0, -1);
}

static inline void ipv6(struct frame *f, const char *src, const char *dst, uint8_t nexthdr)
{
	struct ipv6hdr h = { .version = 6, .nexthdr = nexthdr, .hop_limit = 64 };

	inet_pton(AF_INET6, src, &h.saddr);
	inet_pton(AF_INET6, dst, &h.daddr);
	follow_length(f, true);
	put(f, &h, sizeof(h));
}

/* hop-by-hop, routing or destination options: (units + 1) * 8 bytes */
static inline void ext6(struct frame *f, uint8_t nexthdr, uint8_t units)
{
	uint8_t h[256] = { nexthdr, units };

	put(f, h, (size_t)(units + 1) * 8);
}

static inline void frag6(struct frame *f, uint8_t nexthdr, uint16_t offset8, int more)
{
	uint8_t h[8] = { nexthdr, 0 };
	uint16_t off = htons((uint16_t)(offset8 << 3 | (more ? 1 : 0)));

	memcpy(h + 2, &off, 2);
	put(f, h, sizeof(h));
}

#define GRE_C 0x8000
#define GRE_R 0x4000
#define GRE_K 0x2000
#define GRE_S 0x1000

static inline void gre(struct frame *f, uint16_t flags, uint16_t proto)
{
	uint8_t zero[4] = {};

	put16(f, flags);
	put16(f, proto);
	if (flags & GRE_C)
		put(f, zero, 4);
	if (flags & GRE_K)
		put(f, "KEY!", 4);
	if (flags & GRE_S)
		put(f, "SEQ#", 4);
	if (flags & GRE_R)
		put(f, zero, 4);
}

static inline void udp(struct frame *f)
{
	static const uint8_t h[16] = { 0x30, 0x39, 0x00, 0x35, 0, 16, 0, 0, 'p', 'a', 'y', 'l' };

	put(f, h, sizeof(h));
}

#endif
