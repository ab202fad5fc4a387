/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* flowkey.h: what every table does with an address (struct flow_key, IPv4 as
 * ::ffff:a.b.c.d): equality, order, hash, the IPv4 form, a network's prefix; and a
 * port's key (FLOWTOP_PORT_KEY_KIND), made and read. */
#ifndef FLOWTOP_FLOWKEY_H
#define FLOWTOP_FLOWKEY_H

#include <endian.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "flowtop.h"

static inline int flow_key_eq(const struct flow_key *a, const struct flow_key *b)
{
	uint64_t a0, a1, b0, b1;

	memcpy(&a0, a->addr, 8);
	memcpy(&a1, a->addr + 8, 8);
	memcpy(&b0, b->addr, 8);
	memcpy(&b1, b->addr + 8, 8);
	return a0 == b0 && a1 == b1;
}

/* key = the IPv4 address addr (network byte order), as every table keys it:
 * ::ffff:a.b.c.d. Two 8-byte stores, which the 8-byte loads of flow_key_hash() and
 * flow_key_eq() can be served from (bytes stored one by one would stall them). */
static inline void flow_key_ipv4(struct flow_key *key, uint32_t addr)
{
	uint64_t zero = 0;
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	uint64_t low = (uint64_t)addr << 32 | 0xffff0000u; /* 00 00 ff ff, then addr */
#else
	uint64_t low = 0xffffull << 32 | addr;
#endif

	memcpy(key->addr, &zero, 8);
	memcpy(key->addr + 8, &low, 8);
}

/* memcmp()'s order of two keys, in two 8-byte comparisons. */
static inline int flow_key_cmp(const struct flow_key *a, const struct flow_key *b)
{
	uint64_t a0, a1, b0, b1;

	memcpy(&a0, a->addr, 8);
	memcpy(&b0, b->addr, 8);
	if (a0 != b0)
		return be64toh(a0) < be64toh(b0) ? -1 : 1;
	memcpy(&a1, a->addr + 8, 8);
	memcpy(&b1, b->addr + 8, 8);
	if (a1 != b1)
		return be64toh(a1) < be64toh(b1) ? -1 : 1;
	return 0;
}

static inline uint64_t flow_key_hash(const struct flow_key *key)
{
	uint64_t a, b;

	memcpy(&a, key->addr, 8);
	memcpy(&b, key->addr + 8, 8);
	a ^= b * 0x9e3779b97f4a7c15ULL;
	a ^= a >> 32;
	a *= 0xd6e8feb86659fd93ULL;
	return a ^ (a >> 32);
}

/* Whether addr lies in net/prefix (prefix: leading bits that must match, 0..128; IPv4
 * as IPv4-mapped, its prefix + 96). */
static inline bool flow_key_in_net(const struct flow_key *addr, const struct flow_key *net,
				   unsigned prefix)
{
	unsigned full = prefix / 8, rest = prefix % 8;

	if (memcmp(addr->addr, net->addr, full))
		return false;
	return !rest || !((addr->addr[full] ^ net->addr[full]) & (uint8_t)(0xff << (8 - rest)));
}

/* key = a port of IP protocol proto, or the protocol's "no port" when !known (the port
 * is then 0), as bpf/flowtop.h lays it out. */
static inline void flow_key_port(struct flow_key *key, uint8_t proto, uint16_t port, bool known)
{
	memset(key->addr, 0, sizeof(key->addr));
	key->addr[10] = FLOWTOP_PORT_KEY_KIND;
	key->addr[11] = proto;
	if (known) {
		key->addr[12] = (uint8_t)(port >> 8);
		key->addr[13] = (uint8_t)port;
		key->addr[14] = 1;
	}
}

/* A port's key (flow_key_port()): its protocol, port and whether it is known. */
static inline uint8_t flow_key_port_proto(const struct flow_key *key)
{
	return key->addr[11];
}

static inline uint16_t flow_key_port_number(const struct flow_key *key)
{
	return (uint16_t)(key->addr[12] << 8 | key->addr[13]);
}

static inline bool flow_key_port_known(const struct flow_key *key)
{
	return key->addr[14] != 0;
}

#endif
