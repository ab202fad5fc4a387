// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* test_dissect.c: crafted frames through BPF_PROG_TEST_RUN, each with the verdict and
 * addresses expected beside it, read back through the sampler as flowtop reads them.
 *
 *   test_dissect                   run the tests (root)
 *   test_dissect --export DIR      also write DIR/cases.pcap and DIR/cases.csv (the
 *                                  expected per-address counts) for the live replay test */
#include "test.h"

#include <arpa/inet.h>
#include <dlfcn.h>
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <linux/if_ether.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "bpf_load.h"
#include "convo.h"
#include "filefeed.h"
#include "fmt.h"
#include "frames.h"
#include "runner.h"
#include "hosttab.h"
#include "sampler.h"

enum verdict {
	COUNTED,
	NON_IP,
	CUT
};

/* aligned_alloc as the tests want it (the host table's hash comes from it): the next
 * one's, but failing for sizes above this while it is not 0 */
static size_t fail_alloc_above;

void *aligned_alloc(size_t align, size_t n)
{
	static void *(*next)(size_t, size_t);

	if (fail_alloc_above && n > fail_alloc_above) {
		errno = ENOMEM;
		return NULL;
	}
	if (!next)
		next = (void *(*)(size_t, size_t))dlsym(RTLD_NEXT, "aligned_alloc");
	return next(align, n);
}

/* ---- running one frame ---- */

/* Runs f alone and checks everything the maps then hold. */
static bool expect_frame(const char *what, const struct frame *f, enum verdict v, const char *src,
			 const char *dst, uint64_t bytes)
{
	bool was_ok = test_ok;
	const struct host *s, *d;

	reset();
	if (!ASSERT_OK(run_frame(f)) || !ASSERT_OK(sample())) {
		printf("  ^ in case: %s (%zu bytes)\n", what, f->len);
		return false;
	}
	ASSERT_EQ(totals.total.frames, 1);
	ASSERT_EQ(totals.total.bytes, bytes);
	ASSERT_EQ(totals.total.non_ip, v == NON_IP);
	ASSERT_EQ(totals.total.truncated, v == CUT);
	ASSERT_EQ(totals.total.lost, 0);
	if (v != COUNTED) {
		ASSERT_EQ(hosttab_count(tab), 0);
	} else {
		ASSERT_EQ(hosttab_count(tab), strcmp(src, dst) ? 2 : 1);
		s = host(src);
		d = host(dst);
		if (ASSERT_TRUE(s && d)) {
			ASSERT_EQ(s->total.tx_packets, 1);
			ASSERT_EQ(s->total.tx_bytes, bytes);
			ASSERT_EQ(d->total.rx_packets, 1);
			ASSERT_EQ(d->total.rx_bytes, bytes);
			if (s != d) {
				ASSERT_EQ(s->total.rx_packets, 0);
				ASSERT_EQ(d->total.tx_packets, 0);
			}
		}
	}
	if (was_ok && !test_ok)
		printf("  ^ in case: %s (%zu bytes)\n", what, f->len);
	return test_ok;
}

/* ---- the table ---- */

struct dcase {
	const char *name;
	void (*build)(struct frame *f);
	enum verdict verdict;
	const char *src, *dst; /* innermost addresses, when counted */
	bool live_only;	       /* BPF_PROG_TEST_RUN refuses it: replay test only */
};

#define A4 "10.1.0.1"
#define B4 "10.2.0.2"
#define C4 "192.0.2.3"
#define D4 "192.0.2.4"
#define E4 "198.51.100.5"
#define F4 "198.51.100.6"
#define A6 "2001:db8::a"
#define B6 "2001:db8::b"
#define C6 "fd00::c"
#define D6 "fd00::d"

static void b_ipv4_udp(struct frame *f)
{
	eth(f, ETH_P_IP), ipv4(f, A4, B4, IPPROTO_UDP), udp(f);
}
static void b_ipv4_ihl6(struct frame *f)
{
	eth(f, ETH_P_IP), ipv4_full(f, A4, B4, IPPROTO_UDP, 6, 0, -1), udp(f);
}
static void b_ipv4_ihl15(struct frame *f)
{
	eth(f, ETH_P_IP), ipv4_full(f, A4, B4, IPPROTO_TCP, 15, 0, -1), udp(f);
}
static void b_ipv4_ihl4(struct frame *f)
{
	eth(f, ETH_P_IP), ipv4_full(f, A4, B4, IPPROTO_UDP, 4, 0, -1), udp(f);
}
static void b_ipv4_options_cut(struct frame *f)
{
	eth(f, ETH_P_IP), ipv4_full(f, A4, B4, IPPROTO_UDP, 15, 0, -1);
	f->len -= 4; /* the last option word is missing */
}
static void b_ipv4_version6(struct frame *f)
{
	eth(f, ETH_P_IP), ipv4(f, A4, B4, IPPROTO_UDP), udp(f);
	f->b[14] = 0x65;
}
static void b_ipv4_totlen_bogus(struct frame *f)
{
	eth(f, ETH_P_IP), ipv4_full(f, A4, B4, IPPROTO_UDP, 5, 0, 19), udp(f);
}
static void b_ipv4_totlen_zero_tso(struct frame *f)
{
	eth(f, ETH_P_IP), ipv4_full(f, A4, B4, IPPROTO_UDP, 5, 0, 0), udp(f);
}
static void b_ipv4_same_src_dst(struct frame *f)
{
	eth(f, ETH_P_IP), ipv4(f, C4, C4, IPPROTO_UDP), udp(f);
}
/* a later fragment of an IPIP packet: its bytes look like an inner header, and must
 * not be read as one */
static void b_ipv4_frag_nonfirst(struct frame *f)
{
	eth(f, ETH_P_IP), ipv4_full(f, A4, B4, IPPROTO_IPIP, 5, 185, -1);
	ipv4(f, C4, D4, IPPROTO_UDP), udp(f);
}
static void b_ipv4_frag_first(struct frame *f)
{
	eth(f, ETH_P_IP), ipv4_full(f, A4, B4, IPPROTO_IPIP, 5, 0x2000 /* MF */, -1);
	ipv4(f, C4, D4, IPPROTO_UDP), udp(f);
}
static void b_ipv6_udp(struct frame *f)
{
	eth(f, ETH_P_IPV6), ipv6(f, A6, B6, IPPROTO_UDP), udp(f);
}
/* BIG TCP: GSO packets over 64 KiB carry payload length 0 (no jumbo option) */
static void b_ipv6_payload_len_zero(struct frame *f)
{
	eth(f, ETH_P_IPV6), ipv6(f, A6, B6, IPPROTO_TCP), udp(f);
	f->b[ETH_HLEN + 4] = f->b[ETH_HLEN + 5] = 0;
}
static void b_ipv6_version4(struct frame *f)
{
	eth(f, ETH_P_IPV6), ipv6(f, A6, B6, IPPROTO_UDP), udp(f);
	f->b[14] = 0x40;
}
static void b_ipv6_ext_chain(struct frame *f)
{
	eth(f, ETH_P_IPV6), ipv6(f, A6, B6, 0 /* hop-by-hop */);
	ext6(f, 43, 0), ext6(f, 60, 1), frag6(f, 60, 0, 1), ext6(f, IPPROTO_UDP, 2), udp(f);
}
static void b_ipv6_ext_cut(struct frame *f)
{
	eth(f, ETH_P_IPV6), ipv6(f, A6, B6, 60), ext6(f, IPPROTO_UDP, 3);
	f->len -= 9;
}
/* headers that fit the frame but not the length their IP header declares: trailing
 * bytes (Ethernet padding) are no part of the packet, as for the kernel's IP input */
static void set16(struct frame *f, size_t at, uint16_t v)
{
	v = htons(v);
	memcpy(f->b + at, &v, 2);
}
static void b_ipv6_ext_past_payload(struct frame *f)
{
	eth(f, ETH_P_IPV6), ipv6(f, A6, B6, 60), ext6(f, IPPROTO_UDP, 1), udp(f);
	set16(f, ETH_HLEN + 4, 8); /* the 16-byte header is longer than the payload */
}
static void b_ipv4_inner_past_outer(struct frame *f)
{
	eth(f, ETH_P_IP), ipv4_full(f, C4, D4, IPPROTO_IPIP, 5, 0, 30);
	ipv4(f, A4, B4, IPPROTO_UDP), udp(f);
}
static void b_gre_past_outer(struct frame *f)
{
	eth(f, ETH_P_IP), ipv4_full(f, C4, D4, IPPROTO_GRE, 5, 0, 22);
	gre(f, GRE_K, ETH_P_IP), ipv4(f, A4, B4, IPPROTO_UDP), udp(f);
}
static void b_4in6_inner_past_payload(struct frame *f)
{
	eth(f, ETH_P_IPV6), ipv6(f, C6, D6, IPPROTO_IPIP), ipv4(f, A4, B4, IPPROTO_UDP), udp(f);
	set16(f, ETH_HLEN + 4, 12);
}
/* options inside hop-by-hop and destination-options headers: walked */
static void b_hbh_option_overrun(struct frame *f)
{
	static const uint8_t hbh[8] = { IPPROTO_UDP, 0, 0x1e, 10 }; /* 12 bytes in 6 */

	eth(f, ETH_P_IPV6), ipv6(f, A6, B6, 0), put(f, hbh, sizeof(hbh)), udp(f);
}
static void b_dst_options_padded(struct frame *f)
{
	static const uint8_t dst[16] = {
		IPPROTO_UDP, 1, 0, 0, 1, 2, 0, 0, 0xc9, 6
	}; /* Pad1, PadN, HAO */

	eth(f, ETH_P_IPV6), ipv6(f, A6, B6, 60), put(f, dst, sizeof(dst)), udp(f);
}
static void b_dst_option_overrun(struct frame *f)
{
	static const uint8_t dst[16] = { IPPROTO_UDP, 1, 1, 4, 0, 0, 0, 0, 0xc9, 16 };

	eth(f, ETH_P_IPV6), ipv6(f, A6, B6, 60), put(f, dst, sizeof(dst)), udp(f);
}
/* a hop-by-hop header in order, then destination options that run past theirs: the
 * second options header is checked too */
static void b_hbh_then_dst_option_overrun(struct frame *f)
{
	static const uint8_t hbh[8] = { 60, 0, 1, 4 }; /* PadN of 4: to its end */
	static const uint8_t dst[16] = { IPPROTO_UDP, 1, 1, 4, 0, 0, 0, 0, 0xc9, 16 };

	eth(f, ETH_P_IPV6), ipv6(f, A6, B6, 0), put(f, hbh, sizeof(hbh));
	put(f, dst, sizeof(dst)), udp(f);
}
static void b_ipv6_frag_nonfirst_6in6(struct frame *f)
{
	eth(f, ETH_P_IPV6), ipv6(f, A6, B6, 44), frag6(f, IPPROTO_IPV6, 100, 0);
	ipv6(f, C6, D6, IPPROTO_UDP), udp(f);
}
static void b_ipv6_frag_first_6in6(struct frame *f)
{
	eth(f, ETH_P_IPV6), ipv6(f, A6, B6, 44), frag6(f, IPPROTO_IPV6, 0, 1);
	ipv6(f, C6, D6, IPPROTO_UDP), udp(f);
}
static void b_ipv6_v4mapped(struct frame *f)
{
	eth(f, ETH_P_IPV6), ipv6(f, "::ffff:" A4, A6, IPPROTO_UDP), udp(f);
}
static void b_vlan(struct frame *f)
{
	eth(f, ETH_P_8021Q), tag(f, ETH_P_IP), ipv4(f, A4, B4, IPPROTO_UDP), udp(f);
}
static void b_qinq(struct frame *f)
{
	eth(f, ETH_P_8021AD), tag(f, ETH_P_8021Q), tag(f, ETH_P_IP);
	ipv4(f, A4, B4, IPPROTO_UDP), udp(f);
}
static void b_three_tags_ipv6(struct frame *f)
{
	eth(f, ETH_P_8021Q), tag(f, ETH_P_8021Q), tag(f, ETH_P_8021Q), tag(f, ETH_P_IPV6);
	ipv6(f, A6, B6, IPPROTO_UDP), udp(f);
}
static const uint8_t arp_body[28] = { 0, 1, 8, 0, 6, 4, 0, 1 };
static const uint8_t llc_body[38] = { 0x42, 0x42, 0x03 }; /* STP BPDU */

static void b_vlan_arp(struct frame *f)
{
	eth(f, ETH_P_8021Q), tag(f, ETH_P_ARP), put(f, arp_body, sizeof(arp_body));
}
static void b_arp(struct frame *f)
{
	eth(f, ETH_P_ARP), put(f, arp_body, sizeof(arp_body));
}
static void b_llc_length(struct frame *f)
{
	eth(f, sizeof(llc_body)), put(f, llc_body, sizeof(llc_body));
}
static void b_mpls(struct frame *f)
{
	eth(f, ETH_P_MPLS_UC), put(f, "\x00\x01\x01\x40", 4), ipv4(f, A4, B4, IPPROTO_UDP), udp(f);
}
static void b_ipip(struct frame *f)
{
	eth(f, ETH_P_IP), ipv4(f, A4, B4, IPPROTO_IPIP), ipv4(f, C4, D4, IPPROTO_TCP), udp(f);
}
static void b_6in4(struct frame *f)
{
	eth(f, ETH_P_IP), ipv4(f, A4, B4, IPPROTO_IPV6), ipv6(f, C6, D6, IPPROTO_UDP), udp(f);
}
static void b_4in6(struct frame *f)
{
	eth(f, ETH_P_IPV6), ipv6(f, A6, B6, IPPROTO_IPIP), ipv4(f, C4, D4, IPPROTO_UDP), udp(f);
}
static void b_6in6(struct frame *f)
{
	eth(f, ETH_P_IPV6), ipv6(f, A6, B6, IPPROTO_IPV6), ipv6(f, C6, D6, IPPROTO_UDP), udp(f);
}
static void b_ipip_inner_missing(struct frame *f)
{
	eth(f, ETH_P_IP), ipv4(f, A4, B4, IPPROTO_IPIP), put(f, "\x45\x00\x00", 3);
}
static void b_gre_ipv6(struct frame *f)
{
	eth(f, ETH_P_IP), ipv4(f, A4, B4, IPPROTO_GRE), gre(f, 0, ETH_P_IPV6);
	ipv6(f, C6, D6, IPPROTO_UDP), udp(f);
}
static void b_gre_over_ipv6(struct frame *f)
{
	eth(f, ETH_P_IPV6), ipv6(f, A6, B6, IPPROTO_GRE), gre(f, GRE_K, ETH_P_IP);
	ipv4(f, C4, D4, IPPROTO_UDP), udp(f);
}
static void b_gre_vlan(struct frame *f)
{
	eth(f, ETH_P_IP), ipv4(f, A4, B4, IPPROTO_GRE), gre(f, GRE_S, ETH_P_8021Q);
	tag(f, ETH_P_IP), ipv4(f, C4, D4, IPPROTO_UDP), udp(f);
}
static void b_gre_vlan_arp(struct frame *f)
{
	eth(f, ETH_P_IP), ipv4(f, A4, B4, IPPROTO_GRE), gre(f, 0, ETH_P_8021Q);
	tag(f, ETH_P_ARP), put(f, arp_body, sizeof(arp_body));
}
static void b_gre_version1(struct frame *f)
{
	eth(f, ETH_P_IP), ipv4(f, A4, B4, IPPROTO_GRE), gre(f, GRE_K | 1, ETH_P_IP);
	ipv4(f, C4, D4, IPPROTO_UDP), udp(f);
}
static void b_gre_routing(struct frame *f)
{
	eth(f, ETH_P_IP), ipv4(f, A4, B4, IPPROTO_GRE), gre(f, GRE_R, ETH_P_IP);
	ipv4(f, C4, D4, IPPROTO_UDP), udp(f);
}
static void b_gre_teb(struct frame *f)
{
	eth(f, ETH_P_IP), ipv4(f, A4, B4, IPPROTO_GRE), gre(f, 0, ETH_P_TEB);
	eth(f, ETH_P_IP); /* (restarts the frame: TEB payload is built below) */
	f->len = 0;
	eth(f, ETH_P_IP), ipv4(f, A4, B4, IPPROTO_GRE), gre(f, 0, ETH_P_TEB);
	put(f, "\x02\x00\x00\x00\x00\x09\x02\x00\x00\x00\x00\x08\x08\x00", 14);
	ipv4(f, C4, D4, IPPROTO_UDP), udp(f);
}
static void b_gre_in_gre(struct frame *f)
{
	eth(f, ETH_P_IP), ipv4(f, A4, B4, IPPROTO_GRE), gre(f, 0, ETH_P_IP);
	ipv4(f, C4, D4, IPPROTO_GRE), gre(f, GRE_K, ETH_P_IP), ipv4(f, E4, F4, IPPROTO_UDP), udp(f);
}
static void b_gre_options_cut(struct frame *f)
{
	eth(f, ETH_P_IP), ipv4(f, A4, B4, IPPROTO_GRE), gre(f, GRE_C | GRE_K | GRE_S, ETH_P_IP);
	f->len -= 2;
}
static void b_vlan_flood(struct frame *f)
{
	int i;

	eth(f, ETH_P_8021Q);
	for (i = 0; i < 20; i++)
		tag(f, ETH_P_8021Q);
	tag(f, ETH_P_IP), ipv4(f, A4, B4, IPPROTO_UDP), udp(f);
}
static void b_vlan_tiny_ip(struct frame *f)
{
	eth(f, ETH_P_8021Q), tag(f, ETH_P_IP), put(f, "\x45\x00", 2);
}
static void b_vlan_empty_ip(struct frame *f)
{
	eth(f, ETH_P_8021Q), tag(f, ETH_P_IP);
}
/* BPF_PROG_TEST_RUN refuses (EINVAL) a frame whose ethertype is IPv4 or IPv6 but which
 * is shorter than that header: these run only live, in the replay test */
static void b_tiny_ip(struct frame *f)
{
	eth(f, ETH_P_IP), put(f, "\x45\x00", 2);
}
static void b_short_ipv6(struct frame *f)
{
	eth(f, ETH_P_IPV6), ipv6(f, A6, B6, IPPROTO_UDP);
	f->len -= 1;
}

static const struct dcase cases[] = {
	{ "IPv4 UDP", b_ipv4_udp, COUNTED, A4, B4, false },
	{ "IPv4 IHL 6", b_ipv4_ihl6, COUNTED, A4, B4, false },
	{ "IPv4 IHL 15", b_ipv4_ihl15, COUNTED, A4, B4, false },
	{ "IPv4 IHL 4 (invalid)", b_ipv4_ihl4, CUT, NULL, NULL, false },
	{ "IPv4 options past the end", b_ipv4_options_cut, CUT, NULL, NULL, false },
	{ "IPv4 ethertype, version 6", b_ipv4_version6, CUT, NULL, NULL, false },
	{ "IPv4 total length < header", b_ipv4_totlen_bogus, CUT, NULL, NULL, false },
	{ "IPv4 total length 0 (TSO)", b_ipv4_totlen_zero_tso, COUNTED, A4, B4, false },
	{ "IPv4 source = destination", b_ipv4_same_src_dst, COUNTED, C4, C4, false },
	{ "IPv4 non-first fragment of IPIP", b_ipv4_frag_nonfirst, COUNTED, A4, B4, false },
	{ "IPv4 first fragment of IPIP", b_ipv4_frag_first, COUNTED, C4, D4, false },
	{ "IPv6 UDP", b_ipv6_udp, COUNTED, A6, B6, false },
	{ "IPv6 payload length 0 (BIG TCP)", b_ipv6_payload_len_zero, COUNTED, A6, B6, false },
	{ "IPv6 ethertype, version 4", b_ipv6_version4, CUT, NULL, NULL, false },
	{ "IPv6 hop/routing/dst/frag/dst chain", b_ipv6_ext_chain, COUNTED, A6, B6, false },
	{ "IPv6 extension header past the end", b_ipv6_ext_cut, CUT, NULL, NULL, false },
	{ "IPv6 extension header past the payload length", b_ipv6_ext_past_payload, CUT, NULL, NULL,
	  false },
	{ "IPv4 in IPv4, inner header past the outer total length", b_ipv4_inner_past_outer, CUT,
	  NULL, NULL, false },
	{ "GRE header past the outer total length", b_gre_past_outer, CUT, NULL, NULL, false },
	{ "IPv4 in IPv6, inner header past the payload length", b_4in6_inner_past_payload, CUT,
	  NULL, NULL, false },
	{ "hop-by-hop option past its header", b_hbh_option_overrun, CUT, NULL, NULL, false },
	{ "destination options: Pad1, PadN, an option to the end", b_dst_options_padded, COUNTED,
	  A6, B6, false },
	{ "destination option past its header", b_dst_option_overrun, CUT, NULL, NULL, false },
	{ "hop-by-hop, then a destination option past its header", b_hbh_then_dst_option_overrun,
	  CUT, NULL, NULL, false },
	{ "IPv6 non-first fragment of 6in6", b_ipv6_frag_nonfirst_6in6, COUNTED, A6, B6, false },
	{ "IPv6 first fragment of 6in6", b_ipv6_frag_first_6in6, COUNTED, C6, D6, false },
	{ "IPv6 v4-mapped source", b_ipv6_v4mapped, COUNTED, A4, A6, false },
	{ "802.1Q", b_vlan, COUNTED, A4, B4, false },
	{ "802.1ad + 802.1Q (QinQ)", b_qinq, COUNTED, A4, B4, false },
	{ "three 802.1Q tags, IPv6", b_three_tags_ipv6, COUNTED, A6, B6, false },
	{ "802.1Q ARP", b_vlan_arp, NON_IP, NULL, NULL, false },
	{ "ARP", b_arp, NON_IP, NULL, NULL, false },
	{ "802.3 length field (LLC)", b_llc_length, NON_IP, NULL, NULL, false },
	{ "MPLS (out of scope)", b_mpls, NON_IP, NULL, NULL, false },
	{ "IPv4 in IPv4", b_ipip, COUNTED, C4, D4, false },
	{ "IPv6 in IPv4 (6in4)", b_6in4, COUNTED, C6, D6, false },
	{ "IPv4 in IPv6", b_4in6, COUNTED, C4, D4, false },
	{ "IPv6 in IPv6", b_6in6, COUNTED, C6, D6, false },
	{ "IPIP, inner header cut", b_ipip_inner_missing, CUT, NULL, NULL, false },
	{ "GRE -> IPv6", b_gre_ipv6, COUNTED, C6, D6, false },
	{ "GRE+K over IPv6 -> IPv4", b_gre_over_ipv6, COUNTED, C4, D4, false },
	{ "GRE+S -> 802.1Q -> IPv4", b_gre_vlan, COUNTED, C4, D4, false },
	{ "GRE -> 802.1Q -> ARP", b_gre_vlan_arp, COUNTED, A4, B4, false },
	{ "GRE version 1 (PPTP)", b_gre_version1, COUNTED, A4, B4, false },
	{ "GRE routing bit", b_gre_routing, COUNTED, A4, B4, false },
	{ "GRE TEB (not followed)", b_gre_teb, COUNTED, A4, B4, false },
	{ "GRE in GRE", b_gre_in_gre, COUNTED, E4, F4, false },
	{ "GRE C+K+S cut", b_gre_options_cut, CUT, NULL, NULL, false },
	{ "21 VLAN tags: past the hop bound", b_vlan_flood, NON_IP, NULL, NULL, false },
	{ "802.1Q, IPv4 header of 2 bytes", b_vlan_tiny_ip, CUT, NULL, NULL, false },
	{ "802.1Q announcing IPv4, no header", b_vlan_empty_ip, CUT, NULL, NULL, false },
	{ "IPv4 header of 2 bytes", b_tiny_ip, CUT, NULL, NULL, true },
	{ "IPv6 header of 39 bytes", b_short_ipv6, CUT, NULL, NULL, true },
};

#define NCASES (sizeof(cases) / sizeof(cases[0]))

static void test_table(void)
{
	struct frame f;
	size_t i;

	for (i = 0; i < NCASES; i++) {
		if (cases[i].live_only)
			continue;
		cases[i].build(&f);
		expect_frame(cases[i].name, &f, cases[i].verdict, cases[i].src, cases[i].dst,
			     f.len);
	}
}

/* GRE with each combination of checksum, key and sequence number. */
static void test_gre_flag_combinations(void)
{
	char name[64];
	struct frame f;
	unsigned m;

	for (m = 0; m < 8; m++) {
		uint16_t flags = (m & 1 ? GRE_C : 0) | (m & 2 ? GRE_K : 0) | (m & 4 ? GRE_S : 0);

		eth(&f, ETH_P_IP), ipv4(&f, A4, B4, IPPROTO_GRE), gre(&f, flags, ETH_P_IP);
		ipv4(&f, C4, D4, IPPROTO_UDP), udp(&f);
		snprintf(name, sizeof(name), "GRE flags 0x%04x", flags);
		expect_frame(name, &f, COUNTED, C4, D4, f.len);
	}
}

/* A deep frame cut after every byte: anything short of the innermost IP header's end
 * is truncated and attributed to nobody; from there on it counts on the innermost. */
static void test_truncation_at_every_boundary(void)
{
	struct frame full, f;
	size_t inner_end, n;
	char name[64];

	eth(&full, ETH_P_8021AD), tag(&full, ETH_P_8021Q), tag(&full, ETH_P_IP);
	ipv4_full(&full, A4, B4, IPPROTO_GRE, 6, 0, -1), gre(&full, GRE_C | GRE_K, ETH_P_IPV6);
	ipv6(&full, C6, D6, 0), ext6(&full, IPPROTO_IPIP, 1), ipv4(&full, E4, F4, IPPROTO_UDP);
	inner_end = full.len;
	udp(&full);
	for (n = ETH_HLEN; n <= full.len; n++) {
		f = full;
		f.len = n;
		snprintf(name, sizeof(name), "deep frame cut to %zu bytes", n);
		if (!expect_frame(name, &f, n < inner_end ? CUT : COUNTED, E4, F4, n))
			break;
	}
}

/* Without a link header (tun, WireGuard) the version nibble says what follows, and the
 * wire length is the packet's. */
static void test_no_link_header(void)
{
	struct frame f;

	bpf_load_link_put(skel, 1, 1, 0);
	/* the ethertype says ARP: only the version nibble can tell */
	eth(&f, ETH_P_ARP), ipv4(&f, A4, B4, IPPROTO_UDP), udp(&f);
	expect_frame("no link header, IPv4", &f, COUNTED, A4, B4, f.len - ETH_HLEN);
	eth(&f, ETH_P_ARP), ipv6(&f, A6, B6, IPPROTO_UDP), udp(&f);
	expect_frame("no link header, IPv6", &f, COUNTED, A6, B6, f.len - ETH_HLEN);
	eth(&f, ETH_P_ARP), put(&f, "\x10\x00", 2);
	expect_frame("no link header, version 1", &f, NON_IP, NULL, NULL, f.len - ETH_HLEN);
	bpf_load_link_put(skel, 1, 1, ETH_HLEN);
}

static uint64_t ring_head(struct flowtop_bpf *sk, unsigned cpu)
{
	struct flow_ring_ctl ctl = {};
	struct bpf_maps m;

	bpf_load_maps(sk, &m);
	bpf_map_lookup_elem(m.ring_ctl_fd, &cpu, &ctl);
	return ctl.head;
}

/* Seven frames A4 -> B4 on CPU 0, from an emptied table: the slots they took in its ring
 * (its head before them in *h). */
static uint64_t seven_frames_on_cpu0(struct frame *f, uint64_t *h)
{
	cpu_set_t all;
	int i;

	sched_getaffinity(0, sizeof(all), &all);
	reset();
	b_ipv4_udp(f);
	*h = ring_head(skel, 0);
	for (i = 0; i < 7; i++)
		ASSERT_OK(run_on_cpu(0, f));
	sched_setaffinity(0, sizeof(all), &all);
	return ring_head(skel, 0) - *h;
}

/* Where the program joins no frames (a kernel without BPF atomics that fetch: Linux 5.10,
 * 5.11), a test of its joins holds instead what it does there: seven frames of one pair
 * are seven records, every one counted. False then; true where the program joins. */
static bool joins_else_records(void)
{
	struct frame f;
	uint64_t h;

	if (bpf_load_joins(skel))
		return true;
	printf("  no BPF atomics that fetch: every frame a record of its own, checked instead\n");
	ASSERT_EQ(seven_frames_on_cpu0(&f, &h), 7);
	if (ASSERT_OK(sample())) {
		ASSERT_EQ(host(A4)->total.tx_packets, 7);
		ASSERT_EQ(host(B4)->total.rx_bytes, 7 * f.len);
	}
	return false;
}

/* Each CPU publishes into its own ring; the sampler reads them all. Two frames of one
 * pair in a row on a CPU are one record of two frames. */
static void test_per_cpu_rings(void)
{
	int online = (int)sysconf(_SC_NPROCESSORS_ONLN);
	uint64_t h0, h1;
	cpu_set_t all;
	struct frame f;

	if (online < 2) {
		test_cannot_run("one CPU online: per-CPU rings cannot be exercised");
		return;
	}
	sched_getaffinity(0, sizeof(all), &all);
	reset();
	h0 = ring_head(skel, 0);
	h1 = ring_head(skel, 1);
	b_ipv4_udp(&f);
	ASSERT_OK(run_on_cpu(0, &f));
	ASSERT_OK(run_on_cpu(1, &f));
	ASSERT_OK(run_on_cpu(1, &f));
	sched_setaffinity(0, sizeof(all), &all);
	ASSERT_EQ(ring_head(skel, 0) - h0, 1);
	ASSERT_EQ(ring_head(skel, 1) - h1, bpf_load_joins(skel) ? 1 : 2);
	ASSERT_OK(sample());
	ASSERT_EQ(host(A4)->total.tx_packets, 3);
	ASSERT_EQ(host(B4)->total.rx_bytes, 3 * f.len);
	ASSERT_EQ(totals.total.spilled, 0);
}

static bool run_sources_in(struct frame *f, const char *net, int n);

/* Frames of one pair on a CPU are one record while user space has not taken it: a
 * sample takes it, and the next frame starts a record; another pair in between starts
 * one of its own, and the first pair's frames after it still join theirs; the same
 * addresses on another protocol are another record; a record stops taking bytes before
 * its count would overflow (frames of 4 GB each, as a capture file's may say). Every
 * count stays exact. */
static void test_records_join_their_pair(void)
{
	uint64_t h, per;
	cpu_set_t all;
	struct frame f, g;
	int i;

	if (!joins_else_records())
		return;

	sched_getaffinity(0, sizeof(all), &all);
	reset();
	b_ipv4_udp(&f); /* A4 -> B4 */
	eth(&g, ETH_P_IP), ipv4(&g, C4, B4, IPPROTO_UDP), udp(&g);
	h = ring_head(skel, 0);
	for (i = 0; i < 5; i++)
		ASSERT_OK(run_on_cpu(0, &f));
	ASSERT_EQ(ring_head(skel, 0) - h, 1);
	ASSERT_OK(sample());
	ASSERT_EQ(host(A4)->total.tx_packets, 5);
	ASSERT_EQ(host(A4)->total.tx_bytes, 5 * f.len);
	/* taken by the sample: a new record for A, then C's, and A's next frame joins
	 * A's: two more */
	for (i = 0; i < 3; i++)
		ASSERT_OK(run_on_cpu(0, &f));
	ASSERT_OK(run_on_cpu(0, &g));
	ASSERT_OK(run_on_cpu(0, &f));
	ASSERT_EQ(ring_head(skel, 0) - h, 3);
	/* A and C in turn, a hundred times: still those two records */
	for (i = 0; i < 100; i++)
		ASSERT_OK(run_on_cpu(0, i % 2 ? &g : &f));
	ASSERT_EQ(ring_head(skel, 0) - h, 3);
	/* A to B over TCP: a record of its own */
	eth(&g, ETH_P_IP), ipv4(&g, A4, B4, IPPROTO_TCP), put(&g, "tcp header, 20 bytes", 20);
	ASSERT_OK(run_on_cpu(0, &g));
	ASSERT_OK(run_on_cpu(0, &f));
	ASSERT_EQ(ring_head(skel, 0) - h, 4);
	ASSERT_OK(sample());
	ASSERT_EQ(host(A4)->total.tx_packets, 61); /* 5 + 3 + 1 + 50 + the TCP frame + 1 */
	ASSERT_EQ(host(C4)->total.tx_packets, 51);
	ASSERT_EQ(host(B4)->total.rx_packets, 112);
	ASSERT_EQ(host(B4)->total.rx_bytes, 111 * f.len + g.len);
	/* 300 frames of 4 GB on the wire: 2^34 bytes a record at most, so 4 frames a
	 * record; the last record has room for one more small frame */
	per = FLOWTOP_RECORD_BYTES_MASK / (f.len + 0xf0000000ull);
	h = ring_head(skel, 0);
	for (i = 0; i < 300; i++)
		if (!ASSERT_OK(bpf_load_run_frame(skel, f.b, f.len, 0xf0000000u)))
			break;
	ASSERT_EQ(per, 4);
	ASSERT_EQ(ring_head(skel, 0) - h, 300 / per);
	ASSERT_OK(bpf_load_run_frame(skel, f.b, f.len, 0)); /* no extra bytes for the tests
							     * after */
	ASSERT_EQ(ring_head(skel, 0) - h, 300 / per);
	ASSERT_OK(sample());
	ASSERT_EQ(host(A4)->total.tx_packets, 362);
	ASSERT_EQ(host(A4)->total.tx_bytes, 61 * f.len + g.len + 300 * (f.len + 0xf0000000ull));
	/* a record takes FLOWTOP_RECORD_FRAMES_MAX frames at most: the next starts one */
	h = ring_head(skel, 0);
	for (i = 0; i < (int)FLOWTOP_RECORD_FRAMES_MAX + 5; i++)
		if (!ASSERT_OK(run_on_cpu(0, &f)))
			break;
	ASSERT_EQ(ring_head(skel, 0) - h, 2);
	ASSERT_OK(sample());
	ASSERT_EQ(host(A4)->total.tx_packets, 362 + FLOWTOP_RECORD_FRAMES_MAX + 5);
	ASSERT_EQ(totals.total.spilled, 0);
	/* 256 sources in turn, four times, as a flood from many hosts comes: a record a
	 * pair (2,048 sets of two hints a CPU, picked by a hash that every byte of the
	 * addresses changes: three pairs in one set would take turns) */
	h = ring_head(skel, 0);
	for (i = 0; i < 4; i++)
		ASSERT_TRUE(run_sources_in(&g, "10.6", 256));
	printf("  256 pairs in turn, 4 times: %llu records\n",
	       (unsigned long long)(ring_head(skel, 0) - h));
	ASSERT_TRUE(ring_head(skel, 0) - h <= 256 + 8);
	ASSERT_OK(sample());
	ASSERT_EQ(host("10.6.0.1")->total.tx_packets, 4);
	ASSERT_EQ(host("10.6.1.6")->total.tx_packets, 4);
	ASSERT_EQ(host(B4)->delta.rx_packets, 1024);
	sched_setaffinity(0, sizeof(all), &all);
}

/* Slot pos of CPU 0's ring, as the filter left it. */
static union flow_ring_slot ring_slot(uint64_t pos)
{
	union flow_ring_slot slot = { 0 };
	struct bpf_maps m;
	__u32 idx;

	bpf_load_maps(skel, &m);
	idx = (__u32)(pos & (m.ring_slots - 1));
	bpf_map_lookup_elem(m.ring_fd, &idx, &slot);
	return slot;
}

/* CPU 0's pair set idx. */
static struct flow_pair_set join_set(uint64_t idx)
{
	struct flow_pair_set set = { 0 };
	__u32 key = (__u32)idx;
	struct bpf_maps m;

	bpf_load_maps(skel, &m);
	bpf_map_lookup_elem(m.joins_fd, &key, &set);
	return set;
}

/* An IPv4 pair's frames add to the owner of its set, in place: the ring takes one slot,
 * a notice naming the set, and no record; the owner holds the pair's addresses and every
 * frame until a drain takes it, which frees it (count 0); the next frame claims it again
 * with a notice of its own. */
static void test_owner_counts_in_place(void)
{
	union flow_ring_slot notice;
	struct flow_pair_set set;
	uint64_t h, idx;
	struct frame f;
	cpu_set_t all;

	if (!joins_else_records())
		return;

	sched_getaffinity(0, sizeof(all), &all);
	ASSERT_EQ(seven_frames_on_cpu0(&f, &h), 1);
	notice = ring_slot(h);
	ASSERT_EQ(notice.rec.count & FLOWTOP_RECORD_NOTICE, FLOWTOP_RECORD_NOTICE);
	idx = notice.rec.count & ~FLOWTOP_RECORD_NOTICE;
	set = join_set(idx);
	ASSERT_EQ(set.owner.rec.count >> FLOWTOP_RECORD_FRAME_SHIFT & FLOWTOP_RECORD_FRAMES_MAX, 7);
	ASSERT_EQ(set.owner.rec.count & FLOWTOP_RECORD_BYTES_MASK, 7 * f.len);
	ASSERT_EQ(set.owner.rec.count >> FLOWTOP_RECORD_PROTO_SHIFT & 0xff, IPPROTO_UDP);
	ASSERT_EQ(set.owner.rec.src4, inet_addr(A4));
	ASSERT_EQ(set.owner.rec.dst4, inet_addr(B4));
	ASSERT_OK(sample());
	ASSERT_EQ(host(A4)->total.tx_packets, 7);
	ASSERT_EQ(host(B4)->total.rx_bytes, 7 * f.len);
	ASSERT_EQ(join_set(idx).owner.rec.count, 0);
	ASSERT_OK(run_on_cpu(0, &f));
	sched_setaffinity(0, sizeof(all), &all);
	ASSERT_EQ(ring_head(skel, 0) - h, 2);
	ASSERT_EQ(ring_slot(h + 1).rec.count, notice.rec.count);
	ASSERT_OK(sample());
	ASSERT_EQ(host(A4)->total.tx_packets, 8);
	ASSERT_EQ(totals.total.spilled, 0);
}

/* CPU 0's word that turns its joins off. */
static uint64_t no_joins(void)
{
	struct flow_ring_ctl ctl = {};
	struct bpf_maps m;
	__u32 cpu = 0;

	bpf_load_maps(skel, &m);
	bpf_map_lookup_elem(m.ring_ctl_fd, &cpu, &ctl);
	return ctl.no_joins;
}

/* Which of CPU 0's n pair sets differ from before (n of them, read into before), marked
 * in touched: a set a frame claimed the owner of or wrote a hint in, since a drain freed
 * every owner and a new record's hint points elsewhere. before is read again. */
static void mark_touched_sets(struct flow_pair_set *before, unsigned n, bool *touched)
{
	struct flow_pair_set now;
	unsigned i;

	for (i = 0; i < n; i++) {
		now = join_set(i);
		if (memcmp(&now, &before[i], sizeof(now)))
			touched[i] = true;
		before[i] = now;
	}
}

/* Sets that k pairs placed at random in n sets occupy on average: n (1 - (1 - 1/n)^k). */
static double random_sets(unsigned n, unsigned k)
{
	double empty = 1;

	while (k--)
		empty *= 1 - 1.0 / n;
	return n * (1 - empty);
}

/* base (an address's text) with its last byte i, as text in buf. */
static void host_in(char *buf, size_t len, const char *base, unsigned i)
{
	int af = strchr(base, ':') ? AF_INET6 : AF_INET;
	uint8_t a[16];

	if (inet_pton(af, base, a) != 1)
		abort();
	a[af == AF_INET6 ? 15 : 3] = (uint8_t)i;
	inet_ntop(af, a, buf, (socklen_t)len);
}

/* Runs one UDP frame of each of n pairs on CPU 0, pair i from host i / per_src of snet
 * to host i % 256 of dnet (host_in(): both IPv4 or both IPv6; per_src 1: host i to host
 * i), a drain after every 512 (a drain of 1,024 records of pairs that came once each would
 * turn the joins off); returns the CPU's pair sets the frames touched. */
static unsigned run_pairs(const char *snet, const char *dnet, unsigned n, unsigned per_src)
{
	char src[INET6_ADDRSTRLEN], dst[INET6_ADDRSTRLEN];
	struct flow_pair_set *before;
	unsigned i, used = 0;
	struct bpf_maps m;
	bool *touched;
	struct frame f;
	cpu_set_t all;

	bpf_load_maps(skel, &m);
	before = calloc(m.join_sets, sizeof(*before));
	touched = calloc(m.join_sets, sizeof(*touched));
	if (!before || !touched)
		abort();
	sched_getaffinity(0, sizeof(all), &all);
	reset();
	mark_touched_sets(before, m.join_sets, touched);
	memset(touched, 0, m.join_sets * sizeof(*touched));
	for (i = 0; i < n; i++) {
		host_in(src, sizeof(src), snet, i / per_src);
		host_in(dst, sizeof(dst), dnet, i % 256);
		if (strchr(src, ':'))
			eth(&f, ETH_P_IPV6), ipv6(&f, src, dst, IPPROTO_UDP), udp(&f);
		else
			eth(&f, ETH_P_IP), ipv4(&f, src, dst, IPPROTO_UDP), udp(&f);
		if (!ASSERT_OK(run_on_cpu(0, &f)))
			break;
		if (i % 512 == 511 || i == n - 1) {
			mark_touched_sets(before, m.join_sets, touched);
			ASSERT_OK(sample());
		}
	}
	sched_setaffinity(0, sizeof(all), &all);
	ASSERT_EQ(totals.total.frames, n);
	ASSERT_EQ(totals.total.spilled, 0);
	ASSERT_EQ(no_joins(), 0);
	for (i = 0; i < m.join_sets; i++)
		used += touched[i];
	printf("  %u pairs, %u sources of %s to %u of %s: %u of %u sets (at random: %.0f)\n", n,
	       (n + per_src - 1) / per_src, snet, n < 256 ? n : 256, dnet, used, m.join_sets,
	       random_sets(m.join_sets, n));
	free(before);
	free(touched);
	return used;
}

/* Pairs that differ only in their host bytes spread over the sets as pairs at random
 * do (at least 5/6 as many sets: 200 of 2,048 for 256 pairs), so that their hints do
 * not evict each other: the hash mixes every byte of both addresses into its low bits.
 * A multiplication of the address's little-endian word, whose top byte is the host's,
 * left 256 pairs 10.100.0.i -> 10.200.0.i 37 sets. */
static void test_structured_pairs_spread_over_sets(void)
{
	struct bpf_maps m;
	unsigned used;

	if (!joins_else_records())
		return;

	bpf_load_maps(skel, &m);
	used = run_pairs("10.100.0.0", "10.200.0.0", 256, 1);
	ASSERT_TRUE(used >= random_sets(m.join_sets, 256) * 5 / 6);
	used = run_pairs("fd00:100::", "fd00:200::", 256, 1);
	ASSERT_TRUE(used >= random_sets(m.join_sets, 256) * 5 / 6);
	used = run_pairs("10.100.0.0", "10.200.0.0", 64 * 256, 256);
	ASSERT_TRUE(used >= random_sets(m.join_sets, 64 * 256) * 5 / 6);
}

/* A drain of 2,000 records of pairs that came once each (a flood of new sources) turns
 * the CPU's joins off: the next frames of one pair are a record each, all counted; 16
 * drains later it joins again, and a drain where a pair's frames joined keeps it so. A
 * sample's reset turns joins on at once. */
static void test_joins_off_while_pairs_do_not_repeat(void)
{
	struct frame f, g;
	cpu_set_t all;
	uint64_t h;
	int i;

	if (!joins_else_records())
		return;

	sched_getaffinity(0, sizeof(all), &all);
	reset();
	b_ipv4_udp(&f);
	ASSERT_TRUE(run_sources_in(&g, "10.7", 2000));
	ASSERT_OK(sample());
	ASSERT_EQ(no_joins(), 1);
	h = ring_head(skel, 0);
	for (i = 0; i < 5; i++)
		ASSERT_OK(run_on_cpu(0, &f));
	sched_setaffinity(0, sizeof(all), &all);
	ASSERT_EQ(ring_head(skel, 0) - h, 5);
	ASSERT_OK(sample());
	ASSERT_EQ(host(A4)->total.tx_packets, 5);
	ASSERT_EQ(host("10.7.7.250")->total.tx_packets, 1);
	for (i = 0; i < 15; i++)
		sampler_drain(sampler, tab);
	ASSERT_EQ(no_joins(), 0);
	h = ring_head(skel, 0);
	for (i = 0; i < 5; i++)
		ASSERT_OK(run_on_cpu(0, &f));
	sched_setaffinity(0, sizeof(all), &all);
	ASSERT_EQ(ring_head(skel, 0) - h, 1);
	ASSERT_OK(sample());
	ASSERT_EQ(no_joins(), 0);
	ASSERT_EQ(host(A4)->total.tx_packets, 10);
	/* 2,000 new sources with one pair's 200 frames among them: joins pay */
	for (i = 0; i < 200; i++)
		ASSERT_OK(run_on_cpu(0, &f));
	ASSERT_TRUE(run_sources_in(&g, "10.5", 2000));
	ASSERT_OK(sample());
	ASSERT_EQ(no_joins(), 0);
	ASSERT_TRUE(run_sources_in(&g, "10.4", 2000));
	ASSERT_OK(sample());
	ASSERT_EQ(no_joins(), 1);
	reset();
	ASSERT_EQ(no_joins(), 0);
	ASSERT_EQ(totals.total.spilled, 0);
}

/* Frames joining their pairs' records on CPU 0 while user space drains on CPU 1 as
 * fast as it goes: a frame is added to a record before the drain takes it, or starts a
 * new one after, never lost to an exchange nor counted twice, so every host's count is
 * exact however the two interleave. */
#define RACE_REPEAT   64     /* frames a run, all of one pair */
#define RACE_MIN_RUNS 3000   /* runs at least, a pair in turn */
#define RACE_MAX_RUNS 300000 /* and at most, until the drains reach RACE_DRAINS */
#define RACE_DRAINS   2000

struct race {
	struct frame f[3];
	int fd;
	unsigned runs;
	int err;
	unsigned drains; /* the drains so far (the drainer writes it) */
	int done;	 /* the runs are over (the runner writes it) */
};

static void *race_runner(void *arg)
{
	struct race *r = arg;
	cpu_set_t set;
	unsigned i;

	CPU_ZERO(&set);
	CPU_SET(0, &set);
	r->err = -pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
	for (i = 0;
	     !r->err && i < RACE_MAX_RUNS &&
	     (i < RACE_MIN_RUNS || __atomic_load_n(&r->drains, __ATOMIC_RELAXED) < RACE_DRAINS);
	     i++) {
		const struct frame *f = &r->f[i % 3];
		LIBBPF_OPTS(bpf_test_run_opts, o, .data_in = f->b, .data_size_in = (__u32)f->len,
			    .repeat = RACE_REPEAT);

		r->err = bpf_prog_test_run_opts(r->fd, &o) ?: o.retval ? -EBADMSG : 0;
	}
	r->runs = i;
	__atomic_store_n(&r->done, 1, __ATOMIC_RELEASE);
	return NULL;
}

static void test_joins_race_drains(void)
{
	static struct race r; /* three frames: too large for the stack of a test */
	uint64_t records = 0, per;
	cpu_set_t all, one;
	pthread_t runner;

	if (!joins_else_records())
		return;

	if (sysconf(_SC_NPROCESSORS_ONLN) < 2) {
		test_cannot_run("one CPU online: a drain cannot race the filter");
		return;
	}
	reset();
	memset(&r, 0, sizeof(r));
	b_ipv4_udp(&r.f[0]);
	eth(&r.f[1], ETH_P_IP), ipv4(&r.f[1], C4, B4, IPPROTO_UDP), udp(&r.f[1]);
	b_ipv6_udp(&r.f[2]);
	r.fd = bpf_load_prog_fd(skel);
	sched_getaffinity(0, sizeof(all), &all);
	CPU_ZERO(&one);
	CPU_SET(1, &one);
	if (!ASSERT_OK(sched_setaffinity(0, sizeof(one), &one)) ||
	    !ASSERT_OK(pthread_create(&runner, NULL, race_runner, &r)))
		return;
	while (!__atomic_load_n(&r.done, __ATOMIC_ACQUIRE)) {
		records += sampler_drain(sampler, tab);
		__atomic_store_n(&r.drains, r.drains + 1, __ATOMIC_RELAXED);
	}
	pthread_join(runner, NULL);
	sched_setaffinity(0, sizeof(all), &all);
	ASSERT_OK(r.err);
	ASSERT_OK(sample());
	per = (uint64_t)RACE_REPEAT * (r.runs / 3);
	ASSERT_EQ(host(A4)->total.tx_packets, per + (r.runs % 3 > 0) * RACE_REPEAT);
	ASSERT_EQ(host(A4)->total.tx_bytes, host(A4)->total.tx_packets * r.f[0].len);
	ASSERT_EQ(host(C4)->total.tx_packets, per + (r.runs % 3 > 1) * RACE_REPEAT);
	ASSERT_EQ(host(B4)->total.rx_packets,
		  host(A4)->total.tx_packets + host(C4)->total.tx_packets);
	ASSERT_EQ(host(A6)->total.tx_packets, per);
	ASSERT_EQ(host(B6)->total.rx_bytes, per * r.f[2].len);
	ASSERT_EQ(totals.total.frames, (uint64_t)r.runs * RACE_REPEAT);
	ASSERT_EQ(totals.total.spilled, 0);
	/* the drains came between the runs' frames: records were taken and begun anew */
	ASSERT_TRUE(records > 3);
	printf("  %u runs of %d frames, %u drains, %llu records\n", r.runs, RACE_REPEAT, r.drains,
	       (unsigned long long)records);
}

/* An IPv6 pair's record is three slots, an IPv4 pair's one; frames of an IPv6 pair in a
 * row join as IPv4 ones do, and a pair of IPv4-mapped IPv6 addresses counts on the
 * IPv4 host it names. */
static void test_records_of_both_families(void)
{
	struct frame f, g;
	cpu_set_t all;
	uint64_t h;
	int i;

	if (!joins_else_records())
		return;

	sched_getaffinity(0, sizeof(all), &all);
	reset();
	eth(&f, ETH_P_IPV6), ipv6(&f, A6, B6, IPPROTO_UDP), udp(&f);
	eth(&g, ETH_P_IPV6), ipv6(&g, "::ffff:" A4, B6, IPPROTO_UDP), udp(&g);
	h = ring_head(skel, 0);
	for (i = 0; i < 3; i++)
		ASSERT_OK(run_on_cpu(0, &f));
	ASSERT_EQ(ring_head(skel, 0) - h, 3);
	ASSERT_OK(run_on_cpu(0, &g));
	ASSERT_EQ(ring_head(skel, 0) - h, 6);
	ASSERT_OK(sample());
	ASSERT_EQ(host(A6)->total.tx_packets, 3);
	ASSERT_EQ(host(A6)->total.tx_bytes, 3 * f.len);
	ASSERT_EQ(host(B6)->total.rx_packets, 4);
	ASSERT_EQ(host(A4)->total.tx_packets, 1);
	ASSERT_EQ(totals.total.spilled, 0);
	sched_setaffinity(0, sizeof(all), &all);
}

/* Counters accumulate across samples, and the rates come from the difference. */
/* Each record names the innermost IP protocol; a conversation of the innermost source
 * classes its frames by it, as the screen's conversation view does. */
static void test_records_carry_the_protocol(void)
{
	struct flow_key a;
	struct convo *conv;
	const struct convo_proto_counts *p;
	struct frame f;
	uint8_t icmp[8] = { 8, 0 };

	if (fmt_parse_addr(C4, &a))
		abort();
	conv = convo_new(&a, false, 16);
	if (!ASSERT_TRUE(conv != NULL))
		return;
	reset();
	sampler_set_convo(sampler, conv);
	eth(&f, ETH_P_IP), ipv4(&f, C4, D4, IPPROTO_UDP), udp(&f);
	ASSERT_OK(run_frame(&f));
	eth(&f, ETH_P_IP), ipv4(&f, A4, B4, IPPROTO_GRE), gre(&f, GRE_K, ETH_P_IP);
	ipv4(&f, C4, D4, IPPROTO_TCP), put(&f, "tcp header, 20 bytes", 20);
	ASSERT_OK(run_frame(&f)); /* inside GRE: the inner protocol, the inner source */
	eth(&f, ETH_P_IPV6), ipv6(&f, A6, B6, IPPROTO_IPIP), ipv4(&f, D4, C4, IPPROTO_ICMP);
	put(&f, icmp, sizeof(icmp));
	ASSERT_OK(run_frame(&f));
	eth(&f, ETH_P_IP), ipv4(&f, C4, D4, 132 /* SCTP */), put(&f, "sctp", 4);
	ASSERT_OK(run_frame(&f));
	eth(&f, ETH_P_IP), ipv4(&f, A4, B4, IPPROTO_TCP), put(&f, "tcp header, 20 bytes", 20);
	ASSERT_OK(run_frame(&f)); /* not the focus's */
	ASSERT_OK(sample());
	p = convo_protos(conv);
	ASSERT_EQ(p[CONVO_UDP].packets, 1);
	ASSERT_EQ(p[CONVO_TCP].packets, 1);
	ASSERT_EQ(p[CONVO_ICMP].packets, 1);
	ASSERT_EQ(p[CONVO_OTHER].packets, 1);
	ASSERT_EQ(hosttab_count(convo_peers(conv)), 1); /* D4, both ways */
	sampler_set_convo(sampler, NULL);
	convo_free(conv);
}

static void test_deltas_across_samples(void)
{
	struct frame f;
	int i;

	reset();
	b_ipv6_udp(&f);
	for (i = 0; i < 5; i++)
		ASSERT_OK(run_frame(&f));
	ASSERT_OK(sample());
	for (i = 0; i < 3; i++)
		ASSERT_OK(run_frame(&f));
	ASSERT_OK(sampler_read(sampler, tab, &totals, 0.5));
	ASSERT_EQ(host(A6)->total.tx_packets, 8);
	ASSERT_EQ(host(A6)->delta.tx_packets, 3);
	ASSERT_EQ(totals.total.frames, 8);
	ASSERT_EQ(totals.delta.frames, 3);
	ASSERT_DBL(per_second(host(B6)->delta.rx_packets, hosttab_interval(tab)), 6.0);
}

/* Runs n frames from as many sources in net (10.9 for 10.9.0.1, 10.9.0.2, ...) to B4 on
 * one CPU, without a drain between: a record each. */
static bool run_sources_in(struct frame *f, const char *net, int n)
{
	char src[32];
	cpu_set_t all;
	int i;

	sched_getaffinity(0, sizeof(all), &all);
	for (i = 0; i < n; i++) {
		snprintf(src, sizeof(src), "%s.%d.%d", net, i / 250, i % 250 + 1);
		eth(f, ETH_P_IP), ipv4(f, src, B4, IPPROTO_UDP), udp(f);
		if (!ASSERT_OK(run_on_cpu(0, f)))
			break;
	}
	sched_setaffinity(0, sizeof(all), &all);
	return i == n;
}

static bool run_sources(struct frame *f, int n)
{
	return run_sources_in(f, "10.9", n);
}

/* A program of a test's own, with a sampler on it: the tests' skel while it lasts, the
 * table and the totals emptied. */
struct rig {
	struct flowtop_bpf *skel, *saved;
	struct sampler *ss;
};

static bool rig_open(struct rig *r, struct bpf_load_opts o)
{
	struct bpf_maps m;
	char err[256];

	r->saved = skel;
	r->ss = NULL;
	r->skel = bpf_load(&o, err, sizeof(err));
	if (!ASSERT_TRUE(r->skel)) {
		printf("  %s\n", err);
		return false;
	}
	skel = r->skel;
	bpf_load_link_put(r->skel, 1, 1, ETH_HLEN);
	bpf_load_maps(r->skel, &m);
	r->ss = sampler_new(&m);
	hosttab_clear(tab);
	memset(&totals, 0, sizeof(totals));
	return ASSERT_TRUE(r->ss);
}

static void rig_close(struct rig *r)
{
	sampler_free(r->ss);
	bpf_unload(r->skel);
	skel = r->saved;
}

/* One program, several interfaces: a frame is counted in its interface's slot (the
 * stats, the record, the spill key) by its ifindex, with that interface's link header;
 * a frame of an interface without a slot counts in FLOWTOP_SLOT_NONE, with the link
 * header the frame shows (the MAC header apart from the network header: 14 bytes of
 * Ethernet), and is still dissected and attributed. BPF_PROG_TEST_RUN runs on lo
 * (ifindex 1), so lo is given one slot and then another. */
static void test_slots_by_ifindex(void)
{
	struct frame f;
	struct rig r;
	cpu_set_t all;
	int i;

	if (!rig_open(&r, (struct bpf_load_opts){ .ring_slots = 64, .spill_hosts = 4096 }))
		return;
	sampler_set_slots(r.ss, 6, true);
	sched_getaffinity(0, sizeof(all), &all); /* one CPU's ring: 64 records */
	ASSERT_OK(bpf_load_link_put(r.skel, 1, 5, ETH_HLEN));
	eth(&f, ETH_P_IP), ipv4(&f, A4, B4, IPPROTO_UDP), udp(&f);
	for (i = 0; i < 3; i++)
		ASSERT_OK(run_on_cpu(0, &f));
	ASSERT_OK(bpf_load_link_drop(r.skel, 1));
	eth(&f, ETH_P_IP), ipv4(&f, C4, B4, IPPROTO_UDP), udp(&f);
	for (i = 0; i < 2; i++)
		ASSERT_OK(run_on_cpu(0, &f));
	ASSERT_EQ(bpf_load_link_put(r.skel, 1 + FLOWTOP_LINK_INDEX, 2, 0), 0);
	ASSERT_EQ(bpf_load_link_put(r.skel, 1, 3, 0), -EBUSY); /* its place is taken */
	ASSERT_OK(bpf_load_link_drop(r.skel, 1 + FLOWTOP_LINK_INDEX));
	ASSERT_EQ(bpf_load_link_put(r.skel, 1, FLOWTOP_MAX_SLOTS, 0), -EINVAL);
	/* a full ring: the spill map's keys carry the slot too (70 sources, a record each) */
	ASSERT_OK(bpf_load_link_put(r.skel, 1, 4, ETH_HLEN));
	sched_setaffinity(0, sizeof(all), &all);
	ASSERT_TRUE(run_sources_in(&f, "10.7", 70));
	if (ASSERT_OK(sampler_read(r.ss, tab, &totals, 1.0))) {
		ASSERT_EQ(totals.nslots, 6);
		ASSERT_EQ(totals.slot_total[5].frames, 3);
		ASSERT_EQ(totals.slot_total[5].bytes, 3 * f.len);
		ASSERT_EQ(totals.slot_total[FLOWTOP_SLOT_NONE].frames, 2);
		ASSERT_EQ(totals.slot_total[FLOWTOP_SLOT_NONE].bytes, 2 * f.len);
		ASSERT_EQ(totals.slot_total[4].frames, 70);
		/* two records before (A4's three frames, C4's two; five where frames
		 * join none), 62 then, 8 past a full ring */
		ASSERT_EQ(totals.slot_total[4].spilled,
			  70 - (64 - (bpf_load_joins(r.skel) ? 2 : 5)));
		ASSERT_EQ(totals.total.frames, 75);
		ASSERT_EQ(host(A4)->total.tx_packets, 3);
		ASSERT_EQ(host(A4)->links, link_bit(5));
		ASSERT_EQ(host(C4)->total.tx_packets, 2);
		ASSERT_EQ(host(C4)->total.tx_bytes, 2 * f.len);
		ASSERT_EQ(host(C4)->links, link_bit(FLOWTOP_SLOT_NONE));
		/* ring and spill map alike */
		ASSERT_EQ(host("10.7.0.1")->total.tx_packets, 1);
		ASSERT_EQ(host("10.7.0.70")->total.tx_packets, 1);
		ASSERT_EQ(host("10.7.0.1")->links, link_bit(4));
		ASSERT_EQ(host("10.7.0.70")->links, link_bit(4));
		ASSERT_EQ(host(B4)->total.rx_packets, 75);
		ASSERT_EQ(host(B4)->links, link_bit(FLOWTOP_SLOT_NONE) | link_bit(4) | link_bit(5));
	}
	rig_close(&r);
}

/* Under any, an interface left without a slot (all held) still has its link header's
 * length in the links array: its frames count in FLOWTOP_SLOT_NONE with their bytes on
 * the wire. A slot that goes to another interface (sampler_restart_slot()) counts the
 * new one's from zero, the gone one's in FLOWTOP_SLOT_NONE's, and the totals stay the
 * sum of everything. */
static void test_slot_none_and_slot_reuse(void)
{
	struct frame f;
	struct rig r;
	int i;

	if (!rig_open(&r, (struct bpf_load_opts){ .ring_slots = 64, .spill_hosts = 4096 }))
		return;
	sampler_set_slots(r.ss, 3, true);
	ASSERT_OK(bpf_load_link_put(r.skel, 1, FLOWTOP_SLOT_NONE, ETH_HLEN));
	eth(&f, ETH_P_IP), ipv4(&f, A4, B4, IPPROTO_UDP), udp(&f);
	for (i = 0; i < 3; i++)
		ASSERT_OK(run_on_cpu(0, &f));
	if (ASSERT_OK(sampler_read(r.ss, tab, &totals, 1.0))) {
		ASSERT_EQ(totals.slot_total[FLOWTOP_SLOT_NONE].frames, 3);
		ASSERT_EQ(totals.slot_total[FLOWTOP_SLOT_NONE].bytes, 3 * f.len);
		ASSERT_EQ(host(A4)->total.tx_bytes, 3 * f.len);
	}
	/* slot 2: one interface's 4 frames, then (it gone, its slot restarted) another's 5 */
	ASSERT_OK(bpf_load_link_put(r.skel, 1, 2, ETH_HLEN));
	for (i = 0; i < 4; i++)
		ASSERT_OK(run_on_cpu(0, &f));
	if (ASSERT_OK(sampler_read(r.ss, tab, &totals, 1.0)))
		ASSERT_EQ(totals.slot_total[2].frames, 4);
	ASSERT_OK(bpf_load_link_drop(r.skel, 1));
	sampler_restart_slot(r.ss, 2);
	ASSERT_OK(bpf_load_link_put(r.skel, 1, 2, 0));
	for (i = 0; i < 5; i++)
		ASSERT_OK(run_on_cpu(0, &f));
	if (ASSERT_OK(sampler_read(r.ss, tab, &totals, 1.0))) {
		ASSERT_EQ(totals.slot_total[2].frames, 5);
		ASSERT_EQ(totals.slot_total[2].bytes, 5 * (f.len - ETH_HLEN));
		ASSERT_EQ(totals.slot_delta[2].frames, 5);
		ASSERT_EQ(totals.total.frames, 12);
		ASSERT_EQ(totals.delta.frames, 5);
		/* the gone interface's 4 are "other interfaces" now, beside the 3 without a
		 * slot: the slots add up to the total, and no delta came of the move */
		ASSERT_EQ(totals.slot_total[FLOWTOP_SLOT_NONE].frames, 3 + 4);
		ASSERT_EQ(totals.slot_total[FLOWTOP_SLOT_NONE].bytes, 3 * f.len + 4 * f.len);
		ASSERT_EQ(totals.slot_delta[FLOWTOP_SLOT_NONE].frames, 0);
	}
	rig_close(&r);
}

/* A ring of 64 records and 1,000 frames before user space reads: 64 take the ring, the
 * rest the spill map, and every host's count is still exact. */
static void test_full_ring_spills_exactly(void)
{
	struct frame f;
	struct rig r;
	int i;

	if (!rig_open(&r, (struct bpf_load_opts){ .ring_slots = 64, .spill_hosts = 4096 }))
		return;
	if (run_sources(&f, 1000) && ASSERT_OK(sampler_read(r.ss, tab, &totals, 1.0))) {
		ASSERT_EQ(totals.total.frames, 1000);
		ASSERT_EQ(totals.total.spilled, 1000 - 64);
		ASSERT_EQ(totals.total.lost, 0);
		ASSERT_EQ(hosttab_count(tab), 1001);
		ASSERT_EQ(host(B4)->total.rx_packets, 1000);
		ASSERT_EQ(host(B4)->total.rx_bytes, 1000 * f.len);
		ASSERT_EQ(host("10.9.0.1")->total.tx_packets, 1);   /* through the ring */
		ASSERT_EQ(host("10.9.3.250")->total.tx_packets, 1); /* through the spill map */
		/* the spill map keeps cumulative counters: the next sample adds only news */
		ASSERT_TRUE(run_sources(&f, 100));
		ASSERT_OK(sampler_read(r.ss, tab, &totals, 1.0));
		ASSERT_EQ(host(B4)->total.rx_packets, 1100);
		ASSERT_EQ(host("10.9.0.1")->total.tx_packets, 2);
		ASSERT_EQ(host(B4)->delta.rx_packets, 100);
		for (i = 0; i < 3; i++) /* and when nothing spills, nothing is added */
			ASSERT_OK(sampler_read(r.ss, tab, &totals, 1.0));
		ASSERT_EQ(host(B4)->total.rx_packets, 1100);
	}
	rig_close(&r);
}

/* Whether fd polls readable now. */
static bool readable(int fd)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };

	return poll(&p, 1, 0) == 1 && p.revents & POLLIN;
}

/* A ring that passes a quarter full wakes user space, once until a drain: the wake fd polls
 * readable, a drain takes the notice and the fd is quiet again, and the next crossing
 * wakes it again. A ring at a quarter, or a capture file's frames past it, wake nobody. */
static void test_filling_ring_wakes_user_space(void)
{
	struct filefeed *feed;
	struct frame f;
	struct rig r;
	int fd, i;

	if (!rig_open(&r, (struct bpf_load_opts){ .ring_slots = 64, .spill_hosts = 4096 }))
		return;
	fd = sampler_wake_fd(r.ss);
	ASSERT_TRUE(fd >= 0);
	ASSERT_TRUE(run_sources_in(&f, "10.1", 16)); /* a slot each: a quarter of the ring */
	ASSERT_TRUE(!readable(fd));
	ASSERT_TRUE(run_sources_in(&f, "10.2", 1));
	ASSERT_TRUE(readable(fd));
	ASSERT_TRUE(run_sources_in(&f, "10.3", 10)); /* past a quarter still: no second notice */
	ASSERT_EQ(sampler_drain(r.ss, tab), 27);
	ASSERT_EQ(sampler_wakes(r.ss), 1);
	ASSERT_TRUE(!readable(fd));
	ASSERT_TRUE(run_sources_in(&f, "10.4", 40));
	ASSERT_TRUE(readable(fd));
	ASSERT_OK(sampler_read(r.ss, tab, &totals, 1.0));
	ASSERT_EQ(sampler_wakes(r.ss), 2);
	ASSERT_TRUE(!readable(fd));
	/* a capture file's runs: the reader drains as it goes */
	feed = filefeed_new(r.skel);
	if (ASSERT_TRUE(feed)) {
		for (i = 0; i < 40; i++) {
			char src[32];

			snprintf(src, sizeof(src), "10.5.0.%d", i + 1);
			eth(&f, ETH_P_IP), ipv4(&f, src, B4, IPPROTO_UDP), udp(&f);
			ASSERT_OK(filefeed_add(feed, f.b, f.len, 0));
		}
		ASSERT_OK(filefeed_flush(feed));
		ASSERT_TRUE(!readable(fd));
		filefeed_free(feed);
	}
	ASSERT_OK(sampler_read(r.ss, tab, &totals, 1.0));
	ASSERT_EQ(totals.total.frames, 107);
	ASSERT_EQ(totals.total.spilled, 0);
	ASSERT_EQ(host(B4)->total.rx_packets, 107);
	rig_close(&r);
}

/* n frames from src to B4 on CPU 0 */
static bool run_from(struct frame *f, const char *src, int n)
{
	cpu_set_t all;
	int i;

	sched_getaffinity(0, sizeof(all), &all);
	eth(f, ETH_P_IP), ipv4(f, src, B4, IPPROTO_UDP), udp(f);
	for (i = 0; i < n; i++)
		if (!ASSERT_OK(run_on_cpu(0, f)))
			break;
	sched_setaffinity(0, sizeof(all), &all);
	return i == n;
}

/* A spill map of 64 entries and 936 frames from as many sources spilled before a read:
 * its LRU drops most sources' entries, and what they held is counted lost. Every
 * address update of every frame is then on a host or in lost, and the totals exact. */
static void test_spill_evictions_counted_lost(void)
{
	uint64_t updates = 0;
	struct frame f;
	struct rig r;
	size_t i;

	if (!rig_open(&r, (struct bpf_load_opts){ .ring_slots = 64, .spill_hosts = 64 }))
		return;
	if (run_sources(&f, 1000) && ASSERT_OK(sampler_read(r.ss, tab, &totals, 1.0))) {
		ASSERT_EQ(totals.total.frames, 1000);
		ASSERT_EQ(totals.total.spilled, 936);
		for (i = 0; i < hosttab_count(tab); i++)
			updates += hosttab_get(tab, i)->total.tx_packets +
				   hosttab_get(tab, i)->total.rx_packets;
		ASSERT_TRUE(totals.total.lost > 800); /* most of the 936 sources */
		ASSERT_EQ(updates + totals.total.lost, 2 * 1000);
		ASSERT_EQ(totals.delta.lost, totals.total.lost);
		/* read again, nothing new: nothing more lost, nothing found twice */
		ASSERT_OK(sampler_read(r.ss, tab, &totals, 1.0));
		ASSERT_EQ(totals.delta.lost, 0);
	}
	rig_close(&r);
}

/* The host table's hash cannot grow while the spill map is read: the read fails whole,
 * and the next one adds every count once (a read that failed halfway added some
 * twice). */
static void test_spill_read_all_or_nothing(void)
{
	struct hosttab *fresh = hosttab_new(65536), *saved_tab = tab;
	uint64_t sent = 0;
	struct frame f;
	struct rig r;
	size_t i;

	if (!ASSERT_TRUE(fresh))
		return;
	tab = fresh; /* a table that has never grown */
	if (!rig_open(&r, (struct bpf_load_opts){ .ring_slots = 64, .spill_hosts = 4096 })) {
		tab = saved_tab;
		hosttab_free(fresh);
		return;
	}
	/* 64 records fit the ring (65 hosts: the hash's first 1,024 slots take them), 936
	 * spill: 1,001 hosts need 2,048 slots (at most half full) of 8 bytes (an index and
	 * a hash, hosttab.c's struct slot), 16 KiB */
	if (run_sources(&f, 1000)) {
		fail_alloc_above = 1024 * 8;
		ASSERT_EQ(sampler_read(r.ss, tab, &totals, 1.0), -ENOMEM);
		fail_alloc_above = 0;
		ASSERT_OK(sampler_read(r.ss, tab, &totals, 1.0));
		for (i = 0; i < hosttab_count(tab); i++)
			sent += hosttab_get(tab, i)->total.tx_packets;
		ASSERT_EQ(sent, 1000);
		ASSERT_EQ(host(B4)->total.rx_packets, 1000);
		ASSERT_EQ(hosttab_count(tab), 1001);
	}
	rig_close(&r);
	tab = saved_tab;
	hosttab_free(fresh);
}

/* The length of a loaded program's translated instructions. */
/* The program s loaded, as the verifier left it, into buf (cap bytes); its length, or 0. */
static __u32 xlated(const struct flowtop_bpf *s, void *buf, __u32 cap)
{
	struct bpf_prog_info info = {};
	__u32 len = sizeof(info);

	if (bpf_obj_get_info_by_fd(bpf_load_prog_fd(s), &info, &len) || info.xlated_prog_len > cap)
		return 0;
	cap = info.xlated_prog_len;
	memset(&info, 0, sizeof(info));
	info.xlated_prog_len = cap;
	info.xlated_prog_insns = (__u64)(unsigned long)buf;
	len = sizeof(info);
	return bpf_obj_get_info_by_fd(bpf_load_prog_fd(s), &info, &len) ? 0 : cap;
}

/* Whether a and b loaded other instructions: the maps each refers to (by id, in a
 * 64-bit immediate load) aside. */
static bool programs_differ(const struct flowtop_bpf *a, const struct flowtop_bpf *b)
{
	static struct bpf_insn x[1 << 16], y[1 << 16]; /* the program is some 3,000 */
	__u32 n = xlated(a, x, sizeof(x)) / sizeof(*x), m = xlated(b, y, sizeof(y)) / sizeof(*y), i;
	bool map = false; /* x[i] is the second half of a map's immediate */

	if (!n || n != m)
		return n != m;
	for (i = 0; i < n; i++) {
		bool by_map = map || (x[i].code == (BPF_LD | BPF_IMM | BPF_DW) && x[i].src_reg);

		if (x[i].code != y[i].code || x[i].dst_reg != y[i].dst_reg ||
		    x[i].src_reg != y[i].src_reg || x[i].off != y[i].off ||
		    (!by_map && x[i].imm != y[i].imm))
			return true;
		map = !map && by_map;
	}
	return false;
}

/* The ring published by a fully ordered exchange, as on weakly ordered CPUs: another
 * program than the plain store x86 takes, and every record is read all the same. */
static void test_ring_published_by_exchange(void)
{
	struct frame f;
	struct rig r;

	if (!bpf_load_joins(skel)) { /* no exchange on such a kernel: the load says so */
		char err[256];
		struct flowtop_bpf *sk =
		    bpf_load(&(struct bpf_load_opts){ .ring_slots = 4096, .exchange_head = true },
			     err, sizeof(err));

		ASSERT_TRUE(!sk);
		ASSERT_TRUE(strstr(err, "lacks what flowtop's program needs: BPF atomics") != NULL);
		if (sk)
			bpf_unload(sk);
		return;
	}
	if (!rig_open(&r, (struct bpf_load_opts){ .ring_slots = 4096, .exchange_head = true }))
		return;
	ASSERT_TRUE(programs_differ(r.skel, r.saved));
	if (run_sources(&f, 1000) && ASSERT_OK(sampler_read(r.ss, tab, &totals, 1.0))) {
		ASSERT_EQ(totals.total.frames, 1000);
		ASSERT_EQ(totals.total.spilled, 0);
		ASSERT_EQ(host(B4)->total.rx_packets, 1000);
		ASSERT_EQ(host("10.9.3.250")->total.tx_packets, 1);
	}
	rig_close(&r);
}

/* The program as a kernel without BPF atomics that fetch (Linux 5.10, 5.11) takes it: no
 * fetching instruction in it, every frame a record of its own, the ring's overflow into
 * the spill map, and every count exact. On a kernel with them, another program than the
 * one that joins. */
static void test_frames_are_records_without_fetch(void)
{
	struct flowtop_bpf *joining;
	struct frame f;
	struct rig r;
	cpu_set_t all;
	char err[256];
	uint64_t h;
	int i;

	joining = bpf_load(&(struct bpf_load_opts){ .ring_slots = 64 }, err, sizeof(err));
	if (!ASSERT_TRUE(joining))
		return;
	if (!rig_open(&r, (struct bpf_load_opts){ .ring_slots = 64, .no_fetch_atomics = true })) {
		bpf_unload(joining);
		return;
	}
	ASSERT_TRUE(!bpf_load_joins(r.skel));
	ASSERT_EQ(programs_differ(r.skel, joining), bpf_load_joins(joining));
	bpf_unload(joining);
	sched_getaffinity(0, sizeof(all), &all);
	b_ipv4_udp(&f);
	h = ring_head(r.skel, 0);
	for (i = 0; i < 100; i++)
		if (!ASSERT_OK(run_on_cpu(0, &f)))
			break;
	sched_setaffinity(0, sizeof(all), &all);
	ASSERT_EQ(ring_head(r.skel, 0) - h, 64); /* a record a frame, until the ring is full */
	if (ASSERT_OK(sampler_read(r.ss, tab, &totals, 1.0))) {
		ASSERT_EQ(totals.total.frames, 100);
		ASSERT_EQ(totals.total.spilled, 100 - 64);
		ASSERT_EQ(totals.total.lost, 0);
		ASSERT_EQ(host(A4)->total.tx_packets, 100);
		ASSERT_EQ(host(B4)->total.rx_bytes, 100 * f.len);
	}
	/* drained: the ring takes frames again, an IPv6 record three slots */
	h = ring_head(r.skel, 0);
	eth(&f, ETH_P_IPV6), ipv6(&f, A6, B6, IPPROTO_UDP), udp(&f);
	sched_getaffinity(0, sizeof(all), &all);
	for (i = 0; i < 5; i++)
		ASSERT_OK(run_on_cpu(0, &f));
	sched_setaffinity(0, sizeof(all), &all);
	ASSERT_EQ(ring_head(r.skel, 0) - h, 15);
	if (ASSERT_OK(sampler_read(r.ss, tab, &totals, 1.0)))
		ASSERT_EQ(host(A6)->total.tx_packets, 5);
	rig_close(&r);
}

/* A spill map entry evicted and made anew between two reads, with counters not smaller
 * than those read before, is new all the same (its creation stamp tells). */
static void test_spill_entry_made_anew(void)
{
	struct frame f;
	struct rig r;

	if (!rig_open(&r, (struct bpf_load_opts){ .ring_slots = 64, .spill_hosts = 64 }))
		return;
	/* the ring full of 64 records, then one from X: into the spill map */
	if (run_sources_in(&f, "10.7", 64) && run_from(&f, "10.8.0.1", 1) &&
	    ASSERT_OK(sampler_read(r.ss, tab, &totals, 1.0))) {
		ASSERT_EQ(host("10.8.0.1")->total.tx_packets, 1);
		ASSERT_EQ(totals.total.spilled, 1);
		/* again the ring full, 1,000 sources through the spill map (X is evicted),
		 * then three frames from X: its entry is made anew, with 3 > 1 */
		ASSERT_TRUE(run_sources_in(&f, "10.7", 64) && run_sources(&f, 1000) &&
			    run_from(&f, "10.8.0.1", 3));
		ASSERT_OK(sampler_read(r.ss, tab, &totals, 1.0));
		ASSERT_EQ(host("10.8.0.1")->total.tx_packets, 4);
	}
	rig_close(&r);
}

/* A table of 64 hosts and 1,000 sources that send once: those past the table's bound
 * wait at its door and leave from it, taking no host's place; "other" holds what they
 * counted, and hosts + other equal the totals. */
static void test_full_table_folds_into_other(void)
{
	struct hosttab *small = hosttab_new(64), *saved = tab;
	uint64_t tx = 0;
	struct frame f;
	size_t i;

	tab = small;
	reset();
	if (run_sources(&f, 1000) && ASSERT_OK(sample())) {
		ASSERT_EQ(totals.total.frames, 1000);
		ASSERT_EQ(totals.live_hosts, 64);
		ASSERT_EQ(totals.capacity, 64);
		ASSERT_EQ(totals.evicted + totals.waiting, 1001 - 64);
		ASSERT_TRUE(totals.waiting > 0 && totals.waiting <= 16);
		for (i = 0; i < hosttab_count(tab); i++)
			tx += hosttab_get(tab, i)->total.tx_packets;
		ASSERT_EQ(tx + totals.other.tx_packets, 1000);
		ASSERT_EQ(host(B4)->total.rx_packets, 1000);   /* in every frame: it stays */
		ASSERT_EQ(totals.other.tx_packets, 1000 - 63); /* 63 sources and B4 held */
		ASSERT_TRUE(host("10.9.3.250") == NULL);       /* the newest source waits */
	}
	tab = saved;
	hosttab_free(small);
	reset();
}

/* 100,000 random frames of random lengths, a third of them behind a plausible VLAN/IP
 * start so the walk goes deep: never rejected, never lost, never counted twice. Every
 * frame is counted once: for a host pair (one tx, one rx), or as non-IP, or truncated. */
static void test_random_frames(void)
{
	static const uint16_t types[] = { ETH_P_IP, ETH_P_IPV6, ETH_P_8021Q, ETH_P_8021AD };
	struct flowtop_bpf *big, *saved = skel;
	struct bpf_maps maps;
	uint64_t frames = 0, bytes = 0, tx = 0, rx = 0, txb = 0, rxb = 0;
	struct sampler *bs;
	struct frame f;
	char err[256];
	unsigned seed = 12345;
	size_t i, j;
	int n;

	big = bpf_load(&(struct bpf_load_opts){ .ring_slots = 1 << 17 }, err, sizeof(err));
	if (!ASSERT_TRUE(big))
		return;
	skel = big;
	bpf_load_link_put(big, 1, 1, ETH_HLEN);
	bpf_load_maps(big, &maps);
	bs = sampler_new(&maps);
	hosttab_free(tab);
	tab = hosttab_new(1 << 18);
	memset(&totals, 0, sizeof(totals));
	for (n = 0; n < 100000; n++) {
		f.len = ETH_HLEN + (size_t)rand_r(&seed) % (sizeof(f.b) - ETH_HLEN + 1);
		for (j = 0; j < f.len; j++)
			f.b[j] = (uint8_t)rand_r(&seed);
		if (n % 3 == 1) { /* a real ethertype, then random headers */
			uint16_t t = htons(types[rand_r(&seed) % 4]);

			memcpy(f.b + 12, &t, 2);
		} else if (n % 3 == 2 && f.len >= ETH_HLEN + 20) { /* IPv4, IHL 5, random rest */
			f.b[12] = 0x08, f.b[13] = 0x00, f.b[14] = 0x45;
			f.b[23] = (uint8_t)(rand_r(&seed) % 2 ? IPPROTO_GRE : IPPROTO_IPV6);
		}
		if (run_frame(&f) == 0) { /* EINVAL: an IP ethertype shorter than its header */
			frames++;
			bytes += f.len;
		}
	}
	ASSERT_OK(sampler_read(bs, tab, &totals, 1.0));
	for (i = 0; i < hosttab_count(tab); i++) {
		const struct host *h = hosttab_get(tab, i);

		tx += h->total.tx_packets, rx += h->total.rx_packets;
		txb += h->total.tx_bytes, rxb += h->total.rx_bytes;
	}
	printf("  %llu frames run: %llu counted, %llu non-IP, %llu truncated, %zu hosts\n",
	       (unsigned long long)frames, (unsigned long long)tx,
	       (unsigned long long)totals.total.non_ip, (unsigned long long)totals.total.truncated,
	       hosttab_count(tab));
	ASSERT_TRUE(frames > 90000);
	ASSERT_EQ(totals.total.frames, frames);
	ASSERT_EQ(totals.total.bytes, bytes);
	ASSERT_EQ(totals.total.lost, 0);
	ASSERT_EQ(totals.evicted, 0);
	ASSERT_EQ(tx, rx);
	ASSERT_EQ(txb, rxb);
	ASSERT_EQ(tx + totals.total.non_ip + totals.total.truncated, frames);
	ASSERT_TRUE(tx > 1000 && totals.total.non_ip > 1000 && totals.total.truncated > 1000);
	sampler_free(bs);
	bpf_unload(big);
	skel = saved;
}

/* Frames built for depth: the walk stops after MAX_LAYERS (16) steps, one step a tag,
 * IP header, IPv6 extension header or GRE header, and counts on the last IP header it
 * passed. Ten GRE-in-IPv4 levels: IPv4 headers at steps 1, 3, ... 15: the eighth. */
static void test_deepest_frames(void)
{
	char src[16][32], dst[16][32];
	struct frame f;
	int lvl, k;

	eth(&f, ETH_P_IP);
	for (lvl = 0; lvl < 11; lvl++) {
		snprintf(src[lvl], sizeof(src[lvl]), "10.%d.0.1", lvl);
		snprintf(dst[lvl], sizeof(dst[lvl]), "10.%d.0.2", lvl);
		ipv4(&f, src[lvl], dst[lvl], lvl < 10 ? IPPROTO_GRE : IPPROTO_UDP);
		if (lvl < 10)
			gre(&f, GRE_K, ETH_P_IP);
	}
	udp(&f);
	expect_frame("GRE in GRE, 10 levels", &f, COUNTED, src[7], dst[7], f.len);
	/* 20 destination-options headers: the walk ends inside them, on the IPv6 header */
	eth(&f, ETH_P_IPV6), ipv6(&f, A6, B6, 60);
	for (k = 0; k < 20; k++)
		ext6(&f, k < 19 ? 60 : IPPROTO_UDP, 0);
	udp(&f);
	expect_frame("IPv6, 20 extension headers", &f, COUNTED, A6, B6, f.len);
	/* 15 tags then IPv4: the 16th step reaches the header */
	eth(&f, ETH_P_8021Q);
	for (k = 0; k < 15; k++)
		tag(&f, k < 14 ? ETH_P_8021Q : ETH_P_IP);
	ipv4(&f, A4, B4, IPPROTO_UDP), udp(&f);
	expect_frame("15 tags, then IPv4", &f, COUNTED, A4, B4, f.len);
}

/* A capture file's frames go to the filter several to a run, each cut to its first
 * FLOWTOP_FILE_HEAD bytes (src/count/filefeed.c): every frame of the case table, the deepest
 * frames (whose headers go past the head: run again whole) and random frames, each with
 * bytes on the wire past the file's, count exactly as they do one to a run. */
#define DEEP4 "203.0.113.77"
static struct frame batch_frames[3000];
static uint32_t batch_extra[3000];

struct host_copy {
	struct flow_key addr;
	struct flow_counters total;
};

static size_t build_batch_frames(void)
{
	struct frame deep;
	unsigned seed = 777;
	size_t n = 0, i, j;
	int lvl;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		if (!cases[i].live_only)
			cases[i].build(&batch_frames[n++]);
	eth(&deep, ETH_P_IP);
	for (lvl = 0; lvl < 11; lvl++) {
		ipv4(&deep, lvl == 7 ? DEEP4 : A4, lvl == 7 ? D4 : B4,
		     lvl < 10 ? IPPROTO_GRE : IPPROTO_UDP);
		if (lvl < 10)
			gre(&deep, GRE_K, ETH_P_IP);
	}
	udp(&deep);
	for (i = 0; i < 40; i++) /* more than a batch takes, between the others */
		batch_frames[n++] = deep;
	while (n < sizeof(batch_frames) / sizeof(batch_frames[0])) {
		struct frame *f = &batch_frames[n++];

		f->len = ETH_HLEN + (size_t)rand_r(&seed) % 600;
		for (j = 0; j < f->len; j++)
			f->b[j] = (uint8_t)rand_r(&seed);
		f->b[12] = 0x08, f->b[13] = n % 2 ? 0x00 : 0xdd; /* IPv4 or IPv6 */
		if (f->len > ETH_HLEN)
			f->b[14] = n % 2 ? 0x45 : 0x60;
		if (n % 4 == 1 && f->len >= ETH_HLEN + 20)
			f->b[23] = (uint8_t)(rand_r(&seed) % 2 ? IPPROTO_GRE : IPPROTO_IPIP);
	}
	for (i = 0; i < n; i++)
		batch_extra[i] = (uint32_t)(i % 7 ? 0 : 100 * i);
	return n;
}

static void test_file_batches(void)
{
	size_t n = build_batch_frames(), run = 0, hosts, i;
	static struct host_copy one_by_one[2 * 3000];
	struct flow_totals single;
	struct filefeed_stats st;
	struct filefeed *feed;
	bool accepted[3000];

	reset();
	for (i = 0; i < n; i++) { /* the kernel refuses some (an IPv6 ethertype, no header) */
		accepted[i] = !bpf_load_run_frame(skel, batch_frames[i].b, batch_frames[i].len,
						  batch_extra[i]);
		run += accepted[i];
		if (i % 1000 == 999)
			ASSERT_OK(sample());
	}
	ASSERT_OK(sample());
	ASSERT_TRUE(run > n * 9 / 10);
	single = totals;
	hosts = hosttab_count(tab);
	ASSERT_TRUE(hosts > 1000 && hosts <= 2 * n);
	for (i = 0; i < hosts && i < 2 * n; i++) {
		const struct host *h = hosttab_get(tab, i);

		one_by_one[i] = (struct host_copy){ h->addr, h->total };
	}

	reset();
	feed = filefeed_new(skel);
	if (!ASSERT_TRUE(feed))
		return;
	for (i = 0; i < n; i++) {
		if (accepted[i])
			ASSERT_OK(filefeed_add(feed, batch_frames[i].b, batch_frames[i].len,
					       batch_extra[i]));
		if (i % 1000 == 999) {
			ASSERT_OK(filefeed_flush(feed));
			ASSERT_OK(sample());
		}
	}
	ASSERT_OK(filefeed_flush(feed));
	ASSERT_OK(sample());
	filefeed_stats(feed, &st);
	ASSERT_EQ(st.frames, run);
	ASSERT_EQ(st.again, 40);	/* the deep frames, and only they */
	ASSERT_TRUE(st.runs < run / 8); /* frames of 14 to 614 bytes: 5 to 32 a run */
	ASSERT_EQ(totals.total.frames, single.total.frames);
	ASSERT_EQ(totals.total.bytes, single.total.bytes);
	ASSERT_EQ(totals.total.truncated, single.total.truncated);
	ASSERT_EQ(totals.total.non_ip, single.total.non_ip);
	ASSERT_EQ(totals.total.lost, 0);
	ASSERT_EQ(hosttab_count(tab), hosts);
	for (i = 0; i < hosts; i++) {
		const struct host *h = hosttab_find(tab, &one_by_one[i].addr);

		if (!ASSERT_TRUE(h) ||
		    !ASSERT_TRUE(!memcmp(&h->total, &one_by_one[i].total, sizeof(h->total))))
			break;
	}
	ASSERT_TRUE(host(DEEP4) && host(DEEP4)->total.tx_packets == 40); /* the 8th level's */

	/* what one frame a run cannot take, a batch can: IPv6, shorter than its header
	 * (Linux 5.10 runs it alone too: only the batch is counted here) */
	batch_frames[0].len = ETH_HLEN + 20;
	batch_frames[0].b[12] = 0x86, batch_frames[0].b[13] = 0xdd, batch_frames[0].b[14] = 0x60;
	if (bpf_load_joins(skel)) /* as run on 5.12 and later */
		ASSERT_TRUE(bpf_load_run_frame(skel, batch_frames[0].b, batch_frames[0].len, 0) !=
			    0);
	reset();
	ASSERT_OK(filefeed_add(feed, batch_frames[0].b, batch_frames[0].len, 6));
	ASSERT_OK(filefeed_flush(feed));
	ASSERT_OK(sample());
	ASSERT_EQ(totals.total.frames, 1);
	ASSERT_EQ(totals.total.bytes, ETH_HLEN + 20 + 6);
	ASSERT_EQ(totals.total.truncated, 1);
	filefeed_free(feed);
}

/* ---- export for the live replay test ---- */

struct pcap_hdr {
	uint32_t magic;
	uint16_t major, minor;
	int32_t zone;
	uint32_t sigfigs, snaplen, linktype;
};

struct pcap_rec {
	uint32_t sec, usec, caplen, len;
};

static int export_cases(const char *dir)
{
	struct pcap_hdr h = { 0xa1b2c3d4, 2, 4, 0, 0, 65535, 1 /* Ethernet */ };
	char path[512];
	FILE *pcap, *csv;
	struct frame f;
	size_t i;

	snprintf(path, sizeof(path), "%s/cases.pcap", dir);
	pcap = fopen(path, "wb");
	snprintf(path, sizeof(path), "%s/cases.csv", dir);
	csv = fopen(path, "w");
	if (!pcap || !csv)
		return -errno;
	fwrite(&h, sizeof(h), 1, pcap);
	fputs("name,verdict,src,dst,bytes\n", csv);
	for (i = 0; i < NCASES; i++) {
		struct pcap_rec r = { 1, (uint32_t)i, 0, 0 };

		cases[i].build(&f);
		/* a veth receiver frees a tagged frame shorter than 20 bytes in skb_vlan_untag */
		if ((f.b[12] == 0x81 || f.b[12] == 0x88) && f.len < ETH_HLEN + 6)
			continue;
		r.caplen = r.len = (uint32_t)f.len;
		fwrite(&r, sizeof(r), 1, pcap);
		fwrite(f.b, 1, f.len, pcap);
		fprintf(csv, "\"%s\",%s,%s,%s,%zu\n", cases[i].name,
			cases[i].verdict == COUNTED ? "counted"
			: cases[i].verdict == CUT   ? "cut"
						    : "non_ip",
			cases[i].src ? cases[i].src : "", cases[i].dst ? cases[i].dst : "", f.len);
	}
	fclose(pcap);
	return fclose(csv) ? -errno : 0;
}

int main(int argc, char **argv)
{
	struct bpf_maps maps;
	char err[256];

	if (argc == 3 && !strcmp(argv[1], "--export"))
		return export_cases(argv[2]) ? 1 : 0;
	if (!test_need_root("test_dissect", 11))
		return test_summary("test_dissect");
	skel = bpf_load(&(struct bpf_load_opts){ .ring_slots = 4096 }, err, sizeof(err));
	if (!skel) {
		printf("FAIL test_dissect: %s\n", err);
		test_failed++;
		return test_summary("test_dissect");
	}
	bpf_load_link_put(skel, 1, 1, ETH_HLEN);
	bpf_load_maps(skel, &maps);
	sampler = sampler_new(&maps);
	tab = hosttab_new(1 << 16);
	RUN_TEST(test_table);
	RUN_TEST(test_gre_flag_combinations);
	RUN_TEST(test_truncation_at_every_boundary);
	RUN_TEST(test_no_link_header);
	RUN_TEST(test_slots_by_ifindex);
	RUN_TEST(test_slot_none_and_slot_reuse);
	RUN_TEST(test_per_cpu_rings);
	RUN_TEST(test_records_join_their_pair);
	RUN_TEST(test_owner_counts_in_place);
	RUN_TEST(test_structured_pairs_spread_over_sets);
	RUN_TEST(test_joins_race_drains);
	RUN_TEST(test_joins_off_while_pairs_do_not_repeat);
	RUN_TEST(test_records_of_both_families);
	RUN_TEST(test_records_carry_the_protocol);
	RUN_TEST(test_deltas_across_samples);
	RUN_TEST(test_full_ring_spills_exactly);
	RUN_TEST(test_filling_ring_wakes_user_space);
	RUN_TEST(test_spill_entry_made_anew);
	RUN_TEST(test_ring_published_by_exchange);
	RUN_TEST(test_frames_are_records_without_fetch);
	RUN_TEST(test_spill_read_all_or_nothing);
	RUN_TEST(test_spill_evictions_counted_lost);
	RUN_TEST(test_full_table_folds_into_other);
	RUN_TEST(test_random_frames);
	RUN_TEST(test_deepest_frames);
	RUN_TEST(test_file_batches);
	hosttab_free(tab);
	sampler_free(sampler);
	bpf_unload(skel);
	return test_summary("test_dissect");
}
