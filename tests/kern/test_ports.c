// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* test_ports.c: the filter loaded to count ports (--group port), through
 * BPF_PROG_TEST_RUN: each crafted frame with the port rows expected beside it, read back
 * through the sampler as flowtop reads them; pairs that differ in their ports alone on
 * one CPU (the owners' and the ring records' joins), a full ring's spill, a kernel
 * without BPF atomics that fetch, and a capture file's frames whose ports lie past what
 * a batch is given. Every frame must be in one port row each way, and the hosts'
 * counts as without ports. */
#include "test.h"

#include <errno.h>
#include <sched.h>
#include <netinet/in.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "bpf_load.h"
#include "filefeed.h"
#include "fmt.h"
#include "frames.h"
#include "runner.h"
#include "hosttab.h"
#include "sampler.h"

#define A4 "10.1.0.1"
#define B4 "10.2.0.2"
#define C4 "192.0.2.3"
#define D4 "192.0.2.4"
#define A6 "2001:db8::a"
#define B6 "2001:db8::b"

#define NO_PORT (-1)

static struct hosttab *ports;

/* ---- builders of what carries ports ---- */

/* a transport header's first four bytes, source and destination port, then payload */
static void l4(struct frame *f, uint16_t sport, uint16_t dport)
{
	static const uint8_t rest[16] = { 0, 16, 0, 0, 'p', 'a', 'y', 'l', 'o', 'a', 'd' };

	put16(f, sport);
	put16(f, dport);
	put(f, rest, sizeof(rest));
}

static void icmp(struct frame *f, uint8_t type)
{
	uint8_t h[12] = { type, 0, 0, 0, 0, 1, 0, 1, 'p', 'i', 'n', 'g' };

	put(f, h, sizeof(h));
}

static void b_tcp(struct frame *f)
{
	eth(f, ETH_P_IP), ipv4(f, A4, B4, IPPROTO_TCP), l4(f, 40000, 443);
}
static void b_udp(struct frame *f)
{
	eth(f, ETH_P_IP), ipv4(f, A4, B4, IPPROTO_UDP), l4(f, 33000, 53);
}
static void b_udplite(struct frame *f)
{
	eth(f, ETH_P_IP), ipv4(f, A4, B4, IPPROTO_UDPLITE), l4(f, 5000, 5001);
}
static void b_sctp(struct frame *f)
{
	eth(f, ETH_P_IP), ipv4(f, A4, B4, IPPROTO_SCTP), l4(f, 36412, 38412);
}
static void b_dccp(struct frame *f)
{
	eth(f, ETH_P_IPV6), ipv6(f, A6, B6, IPPROTO_DCCP), l4(f, 7000, 5004);
}
static void b_icmp(struct frame *f)
{
	eth(f, ETH_P_IP), ipv4(f, A4, B4, IPPROTO_ICMP), icmp(f, 8);
}
static void b_icmp6(struct frame *f)
{
	eth(f, ETH_P_IPV6), ipv6(f, A6, B6, IPPROTO_ICMPV6), icmp(f, 128);
}
static void b_ipv4_options(struct frame *f)
{
	eth(f, ETH_P_IP), ipv4_full(f, A4, B4, IPPROTO_UDP, 9, 0, -1), l4(f, 123, 123);
}
static void b_ipv6_extensions(struct frame *f)
{
	eth(f, ETH_P_IPV6), ipv6(f, A6, B6, 0 /* hop-by-hop */);
	ext6(f, 43 /* routing */, 0), ext6(f, 60 /* destination */, 1);
	ext6(f, IPPROTO_TCP, 2), l4(f, 50000, 22);
}
static void b_ipv4_first_fragment(struct frame *f)
{
	eth(f, ETH_P_IP), ipv4_full(f, A4, B4, IPPROTO_UDP, 5, 0x2000 /* MF */, -1);
	l4(f, 33001, 53);
}
static void b_ipv4_later_fragment(struct frame *f)
{
	eth(f, ETH_P_IP), ipv4_full(f, A4, B4, IPPROTO_UDP, 5, 185, -1), l4(f, 1, 2);
}
static void b_ipv6_first_fragment(struct frame *f)
{
	eth(f, ETH_P_IPV6), ipv6(f, A6, B6, 44), frag6(f, IPPROTO_UDP, 0, 1), l4(f, 33002, 53);
}
static void b_ipv6_later_fragment(struct frame *f)
{
	eth(f, ETH_P_IPV6), ipv6(f, A6, B6, 44), frag6(f, IPPROTO_UDP, 100, 0), l4(f, 1, 2);
}
static void b_udp_cut(struct frame *f)
{
	eth(f, ETH_P_IP), ipv4(f, A4, B4, IPPROTO_UDP), put16(f, 33003), put(f, "\0", 1);
}
/* the IP header says its packet ends two bytes into the UDP header: the rest is padding */
static void b_udp_past_ip_length(struct frame *f)
{
	eth(f, ETH_P_IP), ipv4_full(f, A4, B4, IPPROTO_UDP, 5, 0, 22), l4(f, 33004, 53);
}
static void b_icmp_cut(struct frame *f)
{
	eth(f, ETH_P_IP), ipv4_full(f, A4, B4, IPPROTO_ICMP, 5, 0, 20), icmp(f, 8);
}
static void b_ipip(struct frame *f)
{
	eth(f, ETH_P_IP), ipv4(f, C4, D4, IPPROTO_IPIP), ipv4(f, A4, B4, IPPROTO_TCP);
	l4(f, 40001, 80);
}
static void b_6in4(struct frame *f)
{
	eth(f, ETH_P_IP), ipv4(f, C4, D4, IPPROTO_IPV6), ipv6(f, A6, B6, IPPROTO_UDP);
	l4(f, 33005, 443);
}
static void b_gre_udp(struct frame *f)
{
	eth(f, ETH_P_IP), ipv4(f, C4, D4, IPPROTO_GRE), gre(f, GRE_K | GRE_S, ETH_P_IP);
	ipv4(f, A4, B4, IPPROTO_UDP), l4(f, 4500, 4500);
}
static void b_vlan_tcp(struct frame *f)
{
	eth(f, ETH_P_8021Q), tag(f, ETH_P_IP), ipv4(f, A4, B4, IPPROTO_TCP), l4(f, 40002, 25);
}
/* a GRE header the walk stops at (version 1): its IP header carries GRE, no port */
static void b_gre_v1(struct frame *f)
{
	eth(f, ETH_P_IP), ipv4(f, C4, D4, IPPROTO_GRE), gre(f, 0x0001, ETH_P_IP);
	ipv4(f, A4, B4, IPPROTO_TCP), l4(f, 1, 2);
}
static void b_esp(struct frame *f)
{
	eth(f, ETH_P_IP), ipv4(f, A4, B4, IPPROTO_ESP), l4(f, 1, 2);
}

struct pcase {
	const char *name;
	void (*build)(struct frame *f);
	uint8_t proto; /* of the port rows: FLOWTOP_PROTO_UNKNOWN for none */
	int sport, dport;
};

static const struct pcase cases[] = {
	{ "IPv4 TCP", b_tcp, IPPROTO_TCP, 40000, 443 },
	{ "IPv4 UDP", b_udp, IPPROTO_UDP, 33000, 53 },
	{ "IPv4 UDP-Lite", b_udplite, IPPROTO_UDPLITE, 5000, 5001 },
	{ "IPv4 SCTP", b_sctp, IPPROTO_SCTP, 36412, 38412 },
	{ "IPv6 DCCP", b_dccp, IPPROTO_DCCP, 7000, 5004 },
	{ "ICMP echo request: its type both ways", b_icmp, IPPROTO_ICMP, 8, 8 },
	{ "ICMPv6 echo request", b_icmp6, IPPROTO_ICMPV6, 128, 128 },
	{ "IPv4 options before UDP", b_ipv4_options, IPPROTO_UDP, 123, 123 },
	{ "IPv6 hop-by-hop, routing, destination options before TCP", b_ipv6_extensions,
	  IPPROTO_TCP, 50000, 22 },
	{ "IPv4 first fragment", b_ipv4_first_fragment, IPPROTO_UDP, 33001, 53 },
	{ "IPv4 later fragment: no protocol, no port", b_ipv4_later_fragment, FLOWTOP_PROTO_UNKNOWN,
	  NO_PORT, NO_PORT },
	{ "IPv6 first fragment", b_ipv6_first_fragment, IPPROTO_UDP, 33002, 53 },
	{ "IPv6 later fragment: the fragment header's, no port", b_ipv6_later_fragment, 44, NO_PORT,
	  NO_PORT },
	{ "UDP header of 3 bytes", b_udp_cut, IPPROTO_UDP, NO_PORT, NO_PORT },
	{ "UDP header past the IP length", b_udp_past_ip_length, IPPROTO_UDP, NO_PORT, NO_PORT },
	{ "ICMP header past the IP length", b_icmp_cut, IPPROTO_ICMP, NO_PORT, NO_PORT },
	{ "IPIP: the inner header's TCP", b_ipip, IPPROTO_TCP, 40001, 80 },
	{ "6in4: the inner header's UDP", b_6in4, IPPROTO_UDP, 33005, 443 },
	{ "GRE with key and sequence: the inner UDP", b_gre_udp, IPPROTO_UDP, 4500, 4500 },
	{ "802.1Q tag before IPv4 TCP", b_vlan_tcp, IPPROTO_TCP, 40002, 25 },
	{ "GRE version 1: GRE, no port", b_gre_v1, IPPROTO_GRE, NO_PORT, NO_PORT },
	{ "ESP: no port", b_esp, IPPROTO_ESP, NO_PORT, NO_PORT },
};
#define NCASES (sizeof(cases) / sizeof(cases[0]))

/* ---- running and reading ---- */

/* The port row of proto and port (NO_PORT: the protocol's "no port"), or NULL. */
static const struct host *port_row(uint8_t proto, int port)
{
	struct flow_key k;

	flow_key_port(&k, proto, port < 0 ? 0 : (uint16_t)port, port >= 0);
	return hosttab_find(ports, &k);
}

/* Every frame counted on hosts is in one port row each way, and nothing was lost or
 * left the table: the rows' received and sent frames and bytes are the hosts'. */
static void expect_rows_add_up(void)
{
	struct flow_counters h = {}, p = {};
	size_t i;

	for (i = 0; i < hosttab_count(tab); i++)
		counters_add(&h, &hosttab_get(tab, i)->total);
	for (i = 0; i < hosttab_count(ports); i++)
		counters_add(&p, &hosttab_get(ports, i)->total);
	ASSERT_EQ(p.rx_packets, h.rx_packets);
	ASSERT_EQ(p.tx_packets, h.tx_packets);
	ASSERT_EQ(p.rx_bytes, h.rx_bytes);
	ASSERT_EQ(p.tx_bytes, h.tx_bytes);
	ASSERT_EQ(totals.ports_lost, 0);
	ASSERT_EQ(hosttab_departed(ports), 0);
}

/* ---- the tests ---- */

/* Each case alone: its frame at its destination port as received, at its source port as
 * sent, the rows nothing else; the hosts as without ports. */
static void test_table(void)
{
	struct frame f;
	size_t i;

	for (i = 0; i < NCASES; i++) {
		const struct pcase *c = &cases[i];
		const struct host *to, *from;
		bool was_ok = test_ok;

		reset();
		c->build(&f);
		if (!ASSERT_OK(run_frame(&f)) || !ASSERT_OK(sample())) {
			printf("  ^ in case: %s\n", c->name);
			continue;
		}
		ASSERT_EQ(totals.total.frames, 1);
		ASSERT_EQ(totals.total.truncated, 0);
		ASSERT_EQ(hosttab_count(ports), c->sport == c->dport ? 1 : 2);
		to = port_row(c->proto, c->dport);
		from = port_row(c->proto, c->sport);
		if (ASSERT_TRUE(to && from)) {
			ASSERT_EQ(to->total.rx_packets, 1);
			ASSERT_EQ(to->total.rx_bytes, f.len);
			ASSERT_EQ(from->total.tx_packets, 1);
			ASSERT_EQ(from->total.tx_bytes, f.len);
		}
		expect_rows_add_up();
		if (was_ok && !test_ok)
			printf("  ^ in case: %s\n", c->name);
	}
}

/* The filter's pair hash of an IPv4 pair of slot 1 (pair_hash() in bpf/flowtop.bpf.c),
 * to make pairs that share a set: the test checks in the set that they do, so a hash
 * changed there fails here rather than testing nothing. */
static uint64_t mix64(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdull;
	x ^= x >> 33;
	x *= 0xc4ceb9fe1a85ec53ull;
	return x ^ x >> 33;
}

static uint32_t pair_hash4(const char *src, const char *dst, uint8_t proto, uint64_t word)
{
	uint64_t whose =
	    (uint64_t)proto << FLOWTOP_RECORD_PROTO_SHIFT | 1ull << FLOWTOP_RECORD_SLOT_SHIFT;
	uint32_t s, d;
	uint64_t h;

	inet_pton(AF_INET, src, &s);
	inet_pton(AF_INET, dst, &d);
	h = mix64(((uint64_t)s << 32 | d) ^ whose ^ word);
	return (uint32_t)(h ^ h >> 32);
}

#define PORTS_OF(sport, dport) (FLOWTOP_PORTS_KNOWN | (uint64_t)(sport) << 16 | (dport))

/* CPU 0's set idx. */
static struct flow_pair_set set_of(uint32_t idx)
{
	struct flow_pair_set set = {};
	struct bpf_maps m;

	bpf_load_maps(skel, &m);
	bpf_map_lookup_elem(m.joins_fd, &idx, &set);
	return set;
}

static void udp_frame(struct frame *f, uint16_t sport)
{
	eth(f, ETH_P_IP), ipv4(f, A4, B4, IPPROTO_UDP), l4(f, sport, 53);
}

/* Pairs of one address pair whose ports differ but whose hashes pick one set, and for
 * two of them one tag too: the owner (pair 1's) and the ring record a hint points at
 * (pair 2's) are only told from pair 3's frames by their ports. Every port's count
 * stays its own. */
static void test_ports_tell_pairs_of_one_set_apart(void)
{
	uint32_t mask, h1, h2, h3;
	uint16_t p1 = 40000, p2, s3 = 0, d3 = 0;
	struct flow_pair_set set;
	const struct host *row;
	struct bpf_maps m;
	struct frame f;
	cpu_set_t all;
	uint64_t i;
	int k;

	if (!bpf_load_joins(skel)) {
		printf("  no BPF atomics that fetch: no sets, every frame a record\n");
		return;
	}
	bpf_load_maps(skel, &m);
	mask = m.join_sets - 1;
	h1 = pair_hash4(A4, B4, IPPROTO_UDP, PORTS_OF(p1, 53));
	/* pair 2: its set pair 1's; pair 3: its set and its tag pair 2's, ports of its own.
	 * Found once for 2,048 sets a CPU (some 2^27 tries, seconds under emulation), and
	 * searched for again only where the sets are fewer */
	p2 = 40790, s3 = 38883, d3 = 1997;
	h2 = pair_hash4(A4, B4, IPPROTO_UDP, PORTS_OF(p2, 53));
	h3 = pair_hash4(A4, B4, IPPROTO_UDP, PORTS_OF(s3, d3));
	if ((h2 & mask) != (h1 & mask) || (h3 & mask) != (h1 & mask) || h3 >> 16 != h2 >> 16) {
		for (p2 = p1 + 1;; p2++)
			if (((h2 = pair_hash4(A4, B4, IPPROTO_UDP, PORTS_OF(p2, 53))) & mask) ==
			    (h1 & mask))
				break;
		for (s3 = 0, i = 1 << 16; i < (1ull << 32) && !s3; i++) {
			uint16_t sport = (uint16_t)i, dport = (uint16_t)(i >> 16);

			h3 = pair_hash4(A4, B4, IPPROTO_UDP, PORTS_OF(sport, dport));
			if ((h3 & mask) == (h1 & mask) && h3 >> 16 == h2 >> 16 && sport > 1024 &&
			    sport != p1 && sport != p2 && dport != p1 && dport != p2 && dport != 53)
				s3 = sport, d3 = dport;
		}
	}
	if (!ASSERT_TRUE(s3))
		return;
	sched_getaffinity(0, sizeof(all), &all);
	reset();
	udp_frame(&f, p1);
	ASSERT_OK(run_on_cpu(0, &f));
	set = set_of(h1 & mask);
	if (!ASSERT_EQ(
		set.owner.rec.count >> FLOWTOP_RECORD_FRAME_SHIFT & FLOWTOP_RECORD_FRAMES_MAX, 1)) {
		printf("  pair 1 does not own set %u: pair_hash4() is not the filter's\n",
		       h1 & mask);
		sched_setaffinity(0, sizeof(all), &all);
		return;
	}
	udp_frame(&f, p2);
	ASSERT_OK(run_on_cpu(0, &f));
	set = set_of(h1 & mask);
	ASSERT_EQ(set.way[0] >> FLOWTOP_HINT_POS_BITS, h2 >> 16); /* pair 2's record's hint */
	for (k = 0; k < 4; k++) {
		udp_frame(&f, p1);
		ASSERT_OK(run_on_cpu(0, &f));
		udp_frame(&f, p2);
		ASSERT_OK(run_on_cpu(0, &f));
		eth(&f, ETH_P_IP), ipv4(&f, A4, B4, IPPROTO_UDP), l4(&f, s3, d3);
		ASSERT_OK(run_on_cpu(0, &f));
	}
	sched_setaffinity(0, sizeof(all), &all);
	if (!ASSERT_OK(sample()))
		return;
	row = port_row(IPPROTO_UDP, p1);
	ASSERT_TRUE(row && row->total.tx_packets == 5);
	row = port_row(IPPROTO_UDP, p2);
	ASSERT_TRUE(row && row->total.tx_packets == 5);
	row = port_row(IPPROTO_UDP, s3);
	ASSERT_TRUE(row && row->total.tx_packets == 4);
	row = port_row(IPPROTO_UDP, d3);
	ASSERT_TRUE(row && row->total.rx_packets == 4);
	row = port_row(IPPROTO_UDP, 53);
	ASSERT_TRUE(row && row->total.rx_packets == 10);
	expect_rows_add_up();
}

/* Frames of one pair of addresses on one CPU that differ in their ports alone are
 * counted apart: in the IPv4 pair's owner and in ring records (both families), joined
 * to their own ports' record and never to another's. */
static void test_pairs_differ_in_ports(void)
{
	static const char *const src[2] = { A4, A6 }, *const dst[2] = { B4, B6 };
	cpu_set_t all;
	struct frame f;
	int fam, i;

	sched_getaffinity(0, sizeof(all), &all);
	for (fam = 0; fam < 2; fam++) {
		const struct host *row;

		reset();
		for (i = 0; i < 60; i++) { /* sports 1000, 1001, 1002 in turn: 20 frames each */
			if (fam == 0)
				eth(&f, ETH_P_IP), ipv4(&f, src[0], dst[0], IPPROTO_UDP);
			else
				eth(&f, ETH_P_IPV6), ipv6(&f, src[1], dst[1], IPPROTO_UDP);
			l4(&f, (uint16_t)(1000 + i % 3), 53);
			ASSERT_OK(run_on_cpu(0, &f));
		}
		if (!ASSERT_OK(sample()))
			continue;
		for (i = 0; i < 3; i++) {
			row = port_row(IPPROTO_UDP, 1000 + i);
			ASSERT_TRUE(row && row->total.tx_packets == 20 &&
				    row->total.rx_packets == 0);
		}
		row = port_row(IPPROTO_UDP, 53);
		ASSERT_TRUE(row && row->total.rx_packets == 60 &&
			    row->total.rx_bytes == 60 * f.len);
		ASSERT_EQ(hosttab_count(ports), 4);
		ASSERT_TRUE(host(src[fam]) && host(src[fam])->total.tx_packets == 60);
		expect_rows_add_up();
	}
	sched_setaffinity(0, sizeof(all), &all);
}

/* A ring that fills spills the rest to the spill map, ports too (under keys of their
 * own): every port's count exact still, none lost. */
static void test_spill_keeps_ports(void)
{
	cpu_set_t all;
	struct frame f;
	const struct host *row;
	int i, n = 6000; /* 2 slots an IPv4 record: a 4,096-slot ring takes 2,048 */

	sched_getaffinity(0, sizeof(all), &all);
	reset();
	for (i = 0; i < n; i++) {
		eth(&f, ETH_P_IP), ipv4(&f, A4, B4, IPPROTO_TCP),
		    l4(&f, (uint16_t)(10000 + i), 443);
		ASSERT_OK(run_on_cpu(0, &f));
	}
	sched_setaffinity(0, sizeof(all), &all);
	if (!ASSERT_OK(sample()))
		return;
	ASSERT_TRUE(totals.total.spilled > 0);
	ASSERT_EQ(totals.total.lost, 0);
	row = port_row(IPPROTO_TCP, 443);
	ASSERT_TRUE(row && row->total.rx_packets == (uint64_t)n);
	for (i = 0; i < n; i += 997) {
		row = port_row(IPPROTO_TCP, 10000 + i);
		ASSERT_TRUE(row && row->total.tx_packets == 1 && row->total.tx_bytes == f.len);
	}
	ASSERT_EQ(hosttab_count(ports), (size_t)n + 1);
	expect_rows_add_up();
}

/* The program as loaded where BPF atomics do not fetch (Linux 5.10, 5.11): every frame
 * a record of its own, its ports in it. */
static void test_ports_without_fetch(void)
{
	struct flowtop_bpf *kept = skel;
	struct sampler *kept_sampler = sampler;
	struct bpf_maps m;
	struct frame f;
	char err[256];
	size_t i;

	skel = bpf_load(
	    &(struct bpf_load_opts){ .ring_slots = 4096, .no_fetch_atomics = true, .ports = true },
	    err, sizeof(err));
	if (!ASSERT_TRUE(skel)) {
		printf("  %s\n", err);
		skel = kept;
		return;
	}
	bpf_load_link_put(skel, 1, 1, ETH_HLEN);
	bpf_load_maps(skel, &m);
	sampler = sampler_new(&m);
	if (ASSERT_TRUE(sampler)) {
		sampler_set_ports(sampler, ports);
		reset();
		for (i = 0; i < NCASES; i++) {
			cases[i].build(&f);
			ASSERT_OK(run_frame(&f));
			ASSERT_OK(run_frame(&f));
		}
		if (ASSERT_OK(sample())) {
			const struct host *row = port_row(IPPROTO_TCP, 443);

			ASSERT_TRUE(row && row->total.rx_packets == 2);
			row = port_row(IPPROTO_ICMPV6, 128);
			ASSERT_TRUE(row && row->total.rx_packets == 2 &&
				    row->total.tx_packets == 2);
			expect_rows_add_up();
		}
		sampler_free(sampler);
	}
	bpf_unload(skel);
	skel = kept;
	sampler = kept_sampler;
}

/* A capture file's frames go to the filter a batch at a time, each cut to
 * FLOWTOP_FILE_HEAD bytes: a frame whose ports lie past them is run again whole, and
 * counted with its ports; one whose file holds no ports (its snap length) has none. */
static void test_file_ports_past_the_batch_head(void)
{
	struct filefeed *feed = filefeed_new(skel);
	struct filefeed_stats st;
	const struct host *row;
	struct frame f;

	if (!ASSERT_TRUE(feed))
		return;
	reset();
	/* 40 + 48 + 40 bytes of IPv6 headers: all of them in the head, the ports just past */
	eth(&f, ETH_P_IPV6), ipv6(&f, A6, B6, 60), ext6(&f, 60, 5), ext6(&f, IPPROTO_TCP, 4);
	ASSERT_EQ(f.len - ETH_HLEN, FLOWTOP_FILE_HEAD);
	l4(&f, 40003, 8443);
	ASSERT_OK(filefeed_add(feed, f.b, f.len, 0));
	/* the same cut by the file's snap length before its ports: counted, no port */
	ASSERT_OK(filefeed_add(feed, f.b, f.len - 18, 18));
	b_udp(&f); /* and one a batch takes whole */
	ASSERT_OK(filefeed_add(feed, f.b, f.len, 0));
	ASSERT_OK(filefeed_flush(feed));
	if (ASSERT_OK(sample())) {
		filefeed_stats(feed, &st);
		ASSERT_EQ(st.again, 2);
		ASSERT_EQ(totals.total.frames, 3);
		ASSERT_EQ(totals.total.truncated, 0);
		row = port_row(IPPROTO_TCP, 8443);
		ASSERT_TRUE(row && row->total.rx_packets == 1);
		row = port_row(IPPROTO_TCP, NO_PORT);
		ASSERT_TRUE(row && row->total.rx_packets == 1 && row->total.tx_packets == 1);
		row = port_row(IPPROTO_UDP, 53);
		ASSERT_TRUE(row && row->total.rx_packets == 1);
		expect_rows_add_up();
	}
	filefeed_free(feed);
}

int main(void)
{
	struct bpf_maps maps;
	char err[256];

	if (!test_need_root("test_ports", 5))
		return test_summary("test_ports");
	skel = bpf_load(&(struct bpf_load_opts){ .ring_slots = 4096, .ports = true }, err,
			sizeof(err));
	if (!skel) {
		printf("FAIL test_ports: %s\n", err);
		test_failed++;
		return test_summary("test_ports");
	}
	bpf_load_link_put(skel, 1, 1, ETH_HLEN);
	bpf_load_maps(skel, &maps);
	sampler = sampler_new(&maps);
	tab = hosttab_new(1 << 16);
	ports = hosttab_new(1 << 16);
	if (!sampler || !tab || !ports)
		abort();
	sampler_set_ports(sampler, ports);
	RUN_TEST(test_table);
	RUN_TEST(test_pairs_differ_in_ports);
	RUN_TEST(test_ports_tell_pairs_of_one_set_apart);
	RUN_TEST(test_spill_keeps_ports);
	RUN_TEST(test_ports_without_fetch);
	RUN_TEST(test_file_ports_past_the_batch_head);
	hosttab_free(ports);
	hosttab_free(tab);
	sampler_free(sampler);
	bpf_unload(skel);
	return test_summary("test_ports");
}
