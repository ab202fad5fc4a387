// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* test_convo.c: a focus's conversations: exactly the peers it exchanged frames with,
 * each direction from the focus's side, frames between others ignored, protocols
 * classed, samples closed like the host table's. */
#include "hosts.h"

#include <netinet/in.h>

#include "convo.h"
#include "fmt.h"

static void one_frame(struct convo *c, const char *src, const char *dst, uint8_t proto,
		      uint32_t bytes)
{
	struct flow_key s = key(src), d = key(dst);

	convo_frames(c, &s, &d, proto, 0, 1, bytes);
}

static const struct host *peer(const struct convo *c, const char *addr)
{
	struct flow_key k = key(addr);

	return hosttab_find(convo_peers(c), &k);
}

static void test_peers_and_directions(void)
{
	struct flow_key a = key("10.0.0.1");
	struct convo *c = convo_new(&a, false, 16);
	const struct host *b, *d;

	ASSERT_TRUE(c != NULL);
	one_frame(c, "10.0.0.1", "10.0.0.2", IPPROTO_UDP, 100); /* a -> b, three times */
	one_frame(c, "10.0.0.1", "10.0.0.2", IPPROTO_UDP, 100);
	one_frame(c, "10.0.0.1", "10.0.0.2", IPPROTO_UDP, 100);
	one_frame(c, "10.0.0.2", "10.0.0.1", IPPROTO_UDP, 60); /* b -> a */
	one_frame(c, "10.0.0.1", "2001:db8::3", IPPROTO_TCP, 1500);
	one_frame(c, "2001:db8::3", "10.0.0.1", IPPROTO_ICMPV6, 90);
	one_frame(c, "10.0.0.2", "10.0.0.4", IPPROTO_UDP, 999); /* between others: not a's */
	one_frame(c, "10.0.0.4", "10.0.0.2", IPPROTO_TCP, 999);
	convo_end(c, 1.0);
	ASSERT_EQ(hosttab_count(convo_peers(c)), 2);
	b = peer(c, "10.0.0.2");
	d = peer(c, "2001:db8::3");
	ASSERT_TRUE(b && d && !peer(c, "10.0.0.4") && !peer(c, "10.0.0.1"));
	ASSERT_EQ(b->total.tx_packets, 3); /* what a sent to b */
	ASSERT_EQ(b->total.tx_bytes, 300);
	ASSERT_EQ(b->total.rx_packets, 1); /* what a received from b */
	ASSERT_EQ(b->total.rx_bytes, 60);
	ASSERT_EQ(d->total.tx_bytes, 1500);
	ASSERT_EQ(d->total.rx_bytes, 90);
	ASSERT_DBL(hosttab_rate(convo_peers(c), b, 2, 1), 300.0);
	convo_free(c);
}

static void test_protocols(void)
{
	struct flow_key a = key("10.0.0.1");
	struct convo *c = convo_new(&a, false, 16);
	const struct convo_proto_counts *p = convo_protos(c);

	one_frame(c, "10.0.0.1", "10.0.0.2", IPPROTO_TCP, 1000);
	one_frame(c, "10.0.0.2", "10.0.0.1", IPPROTO_TCP, 40);
	one_frame(c, "10.0.0.1", "10.0.0.2", IPPROTO_UDP, 200);
	one_frame(c, "10.0.0.1", "10.0.0.2", IPPROTO_ICMP, 98);
	one_frame(c, "10.0.0.1", "10.0.0.2", IPPROTO_GRE,
		  300);				       /* a tunnel its dissection stopped at */
	one_frame(c, "10.0.0.1", "10.0.0.2", 255, 64); /* FLOWTOP_PROTO_UNKNOWN */
	one_frame(c, "10.0.0.3", "10.0.0.2", IPPROTO_TCP, 5000); /* not a's */
	ASSERT_EQ(p[CONVO_TCP].packets, 0); /* nothing before the sample closes */
	convo_end(c, 1.0);
	ASSERT_EQ(p[CONVO_TCP].packets, 2);
	ASSERT_EQ(p[CONVO_TCP].bytes, 1040);
	ASSERT_EQ(p[CONVO_UDP].bytes, 200);
	ASSERT_EQ(p[CONVO_ICMP].packets, 1);
	ASSERT_EQ(p[CONVO_OTHER].packets, 2);
	ASSERT_EQ(p[CONVO_OTHER].delta_bytes, 364);
	convo_end(c, 1.0);
	ASSERT_EQ(p[CONVO_OTHER].delta_bytes, 0);
	ASSERT_EQ(p[CONVO_OTHER].bytes, 364);
	ASSERT_STREQ(convo_proto_name(CONVO_ICMP), "ICMP");
	convo_free(c);
}

static void test_bounded_peers_keep_sums(void)
{
	struct flow_key a = key("10.0.0.1");
	struct convo *c = convo_new(&a, false, 4);
	char addr[32];
	uint64_t sum = 0;
	size_t i;

	for (i = 0; i < 100; i++) {
		snprintf(addr, sizeof(addr), "10.1.0.%zu", i);
		one_frame(c, "10.0.0.1", addr, IPPROTO_UDP, 10);
		convo_end(c, 1.0);
	}
	ASSERT_EQ(hosttab_count(convo_peers(c)), 4);
	for (i = 0; i < hosttab_count(convo_peers(c)); i++)
		sum += hosttab_get(convo_peers(c), i)->total.tx_bytes;
	ASSERT_EQ(sum + hosttab_other(convo_peers(c))->tx_bytes, 1000);
	convo_free(c);
}

static void port_frame(struct convo *c, const char *src, const char *dst, uint8_t proto,
		       uint64_t ports, uint32_t bytes)
{
	struct flow_key s = key(src), d = key(dst);

	convo_frames(c, &s, &d, proto, ports, 1, bytes);
}

#define PORTS(sport, dport) (FLOWTOP_PORTS_KNOWN | (uint64_t)(sport) << 16 | (dport))

/* A peer new to a full table of peers waits at its door; let in by its second frame, it
 * has its first frame's port too: the same port once, another beside the second's. */
static void test_peer_let_in_keeps_its_first_port(void)
{
	struct flow_key a = key("10.0.0.1"), want[2], got[CONVO_PEER_PORTS];
	struct convo *c = convo_new(&a, false, 2);
	const struct host *h;
	bool more;

	if (!ASSERT_TRUE(c))
		return;
	port_frame(c, "10.0.0.1", "10.0.0.2", IPPROTO_TCP, PORTS(40000, 22), 100);
	port_frame(c, "10.0.0.1", "10.0.0.3", IPPROTO_TCP, PORTS(40001, 22), 100);
	convo_end(c, 1.0); /* full */
	port_frame(c, "10.0.0.1", "10.0.0.4", IPPROTO_UDP, PORTS(40002, 53), 80);
	ASSERT_TRUE(!peer(c, "10.0.0.4")); /* at the door */
	port_frame(c, "10.0.0.1", "10.0.0.4", IPPROTO_UDP, PORTS(40003, 53), 80);
	h = peer(c, "10.0.0.4");
	flow_key_port(&want[0], IPPROTO_UDP, 53, true);
	if (ASSERT_TRUE(h)) {
		ASSERT_EQ(h->pending.tx_packets, 2);
		ASSERT_EQ(convo_peer_ports(h, got, &more), 1);
		ASSERT_TRUE(flow_key_eq(&got[0], &want[0]) && !more);
	}
	convo_end(c, 1.0);
	port_frame(c, "10.0.0.5", "10.0.0.1", IPPROTO_UDP, PORTS(123, 123), 90);
	port_frame(c, "10.0.0.5", "10.0.0.1", IPPROTO_TCP, PORTS(50000, 443), 90);
	h = peer(c, "10.0.0.5");
	flow_key_port(&want[0], IPPROTO_UDP, 123, true);
	flow_key_port(&want[1], IPPROTO_TCP, 443, true);
	if (ASSERT_TRUE(h)) {
		ASSERT_EQ(h->pending.rx_packets, 2);
		ASSERT_EQ(convo_peer_ports(h, got, &more), 2);
		ASSERT_TRUE(flow_key_eq(&got[0], &want[0]) && flow_key_eq(&got[1], &want[1]));
	}
	convo_free(c);
}

/* A peer that takes the door another waited at starts from nothing: the port the one sent
 * away noted is not its. */
static void test_peer_at_a_taken_door_starts_afresh(void)
{
	struct flow_key a = key("10.0.0.1"), x = key("10.2.0.0"), y, want[2], got[CONVO_PEER_PORTS];
	struct convo *c = convo_new(&a, false, 2);
	char addr[FMT_ADDR_LEN], ya[FMT_ADDR_LEN] = "";
	const struct host *h;
	unsigned i;
	bool more;

	if (!ASSERT_TRUE(c))
		return;
	for (i = 1; i < 4096 && !ya[0]; i++) { /* y: a peer whose door is x's (16 doors) */
		snprintf(addr, sizeof(addr), "10.2.%u.%u", i >> 8, i & 0xff);
		y = key(addr);
		if ((hosttab_hash(&y) & 15) == (hosttab_hash(&x) & 15))
			snprintf(ya, sizeof(ya), "%s", addr);
	}
	if (!ASSERT_TRUE(ya[0]))
		goto out;
	port_frame(c, "10.0.0.1", "10.0.0.2", IPPROTO_TCP, PORTS(40000, 22), 100);
	port_frame(c, "10.0.0.1", "10.0.0.3", IPPROTO_TCP, PORTS(40001, 22), 100);
	convo_end(c, 1.0);							  /* full */
	port_frame(c, "10.0.0.1", "10.2.0.0", IPPROTO_UDP, PORTS(40002, 53), 80); /* x waits */
	port_frame(c, "10.0.0.1", ya, IPPROTO_UDP, PORTS(123, 123), 80);   /* y sends it away */
	port_frame(c, "10.0.0.1", ya, IPPROTO_TCP, PORTS(40003, 443), 80); /* y let in */
	h = peer(c, ya);
	flow_key_port(&want[0], IPPROTO_UDP, 123, true);
	flow_key_port(&want[1], IPPROTO_TCP, 443, true);
	if (ASSERT_TRUE(h && !peer(c, "10.2.0.0"))) {
		ASSERT_EQ(convo_peer_ports(h, got, &more), 2);
		ASSERT_TRUE(flow_key_eq(&got[0], &want[0]) && flow_key_eq(&got[1], &want[1]));
	}
out:
	convo_free(c);
}

/* A port's focus: every host that sent or received frames of its protocol on it, rx and
 * tx its own; frames of another port or protocol ignored; a protocol's "no port" has
 * the frames of that protocol without one. */
static void test_hosts_of_a_port(void)
{
	struct flow_key https, tcp_none;
	struct convo *c, *n;
	const struct host *h;

	flow_key_port(&https, IPPROTO_TCP, 443, true);
	flow_key_port(&tcp_none, IPPROTO_TCP, 0, false);
	c = convo_new(&https, true, 16);
	n = convo_new(&tcp_none, true, 16);
	if (!ASSERT_TRUE(c && n))
		return;
	ASSERT_TRUE(convo_of_port(c));
	port_frame(c, "10.0.0.1", "10.0.0.2", IPPROTO_TCP, PORTS(40000, 443), 100); /* client */
	port_frame(c, "10.0.0.2", "10.0.0.1", IPPROTO_TCP, PORTS(443, 40000), 1500);
	port_frame(c, "10.0.0.3", "10.0.0.2", IPPROTO_TCP, PORTS(40001, 443), 60);
	port_frame(c, "10.0.0.1", "10.0.0.4", IPPROTO_UDP, PORTS(40000, 443), 999); /* QUIC */
	port_frame(c, "10.0.0.1", "10.0.0.4", IPPROTO_TCP, PORTS(40000, 80), 999);
	port_frame(c, "10.0.0.1", "10.0.0.4", IPPROTO_TCP, 0, 999); /* no port */
	port_frame(n, "10.0.0.1", "10.0.0.4", IPPROTO_TCP, 0, 70);
	port_frame(n, "10.0.0.1", "10.0.0.4", IPPROTO_TCP, PORTS(40000, 443), 999);
	port_frame(n, "10.0.0.1", "10.0.0.4", IPPROTO_UDP, 0, 999);
	convo_end(c, 1.0);
	convo_end(n, 1.0);
	ASSERT_EQ(hosttab_count(convo_peers(c)), 3);
	h = peer(c, "10.0.0.2");
	ASSERT_TRUE(h && h->total.rx_packets == 2 && h->total.rx_bytes == 160 &&
		    h->total.tx_packets == 1 && h->total.tx_bytes == 1500);
	h = peer(c, "10.0.0.1");
	ASSERT_TRUE(h && h->total.tx_bytes == 100 && h->total.rx_bytes == 1500);
	h = peer(c, "10.0.0.3");
	ASSERT_TRUE(h && h->total.tx_packets == 1 && h->total.rx_packets == 0);
	ASSERT_EQ(convo_protos(c)[CONVO_TCP].packets, 3);
	ASSERT_EQ(convo_protos(c)[CONVO_UDP].packets, 0);
	ASSERT_EQ(hosttab_count(convo_peers(n)), 2);
	h = peer(n, "10.0.0.4");
	ASSERT_TRUE(h && h->total.rx_packets == 1 && h->total.rx_bytes == 70);
	convo_free(c);
	convo_free(n);
}

int main(void)
{
	RUN_TEST(test_peers_and_directions);
	RUN_TEST(test_protocols);
	RUN_TEST(test_bounded_peers_keep_sums);
	RUN_TEST(test_hosts_of_a_port);
	RUN_TEST(test_peer_let_in_keeps_its_first_port);
	RUN_TEST(test_peer_at_a_taken_door_starts_afresh);
	return test_summary("test_convo");
}
