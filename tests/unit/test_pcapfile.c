// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* test_pcapfile.c: each link type a capture file may have, made into the frame the
 * filter is given: the Ethernet header's ethertype, what follows it, and the bytes on
 * the wire it does not hold. */
#include "test.h"

#include <string.h>
#include <arpa/inet.h>
#include <pcap/dlt.h>

#include "pcapfile.h"

static uint8_t out[PCAPFILE_FRAME_MAX];

static unsigned ethertype(void)
{
	return (unsigned)(out[12] << 8 | out[13]);
}

static void test_link_types(void)
{
	uint8_t pkt[64] = { 0 }, ip4 = 0x45, ip6 = 0x60;
	uint32_t extra = 0, family;

	/* Linux cooked: the protocol at 14, the packet after 16 */
	memcpy(pkt + 14, "\x86\xdd", 2);
	pkt[16] = ip6;
	ASSERT_EQ(pcapfile_convert(DLT_LINUX_SLL, pkt, 56, 56, out, &extra), 14 + 40);
	ASSERT_EQ(ethertype(), 0x86dd);
	ASSERT_EQ(out[14], ip6);
	ASSERT_EQ(extra, 0);
	/* SLL2: the protocol first, the packet after 20 */
	memset(pkt, 0, sizeof(pkt));
	memcpy(pkt, "\x08\x00", 2);
	pkt[20] = ip4;
	ASSERT_EQ(pcapfile_convert(DLT_LINUX_SLL2, pkt, 60, 1000, out, &extra), 14 + 40);
	ASSERT_EQ(ethertype(), 0x0800);
	ASSERT_EQ(extra, 1000 - 20 - 40); /* cut by the snap length */
	/* raw IP: the version nibble */
	pkt[0] = ip6;
	ASSERT_EQ(pcapfile_convert(DLT_RAW, pkt, 40, 40, out, &extra), 14 + 40);
	ASSERT_EQ(ethertype(), 0x86dd);
	pkt[0] = 0x10;
	pcapfile_convert(DLT_RAW, pkt, 40, 40, out, &extra);
	ASSERT_EQ(ethertype(), 0); /* neither: non-IP */
	/* BSD loopback: the family in host order (NULL), in network order (LOOP) */
	family = 2;
	memcpy(pkt, &family, 4);
	pcapfile_convert(DLT_NULL, pkt, 44, 44, out, &extra);
	ASSERT_EQ(ethertype(), 0x0800);
	family = htonl(30); /* AF_INET6 on macOS */
	memcpy(pkt, &family, 4);
	pcapfile_convert(DLT_LOOP, pkt, 44, 44, out, &extra);
	ASSERT_EQ(ethertype(), 0x86dd);
	/* a link type flowtop does not read */
	ASSERT_EQ(pcapfile_convert(DLT_IEEE802_11, pkt, 44, 44, out, &extra), -1);
	ASSERT_EQ(pcapfile_link_hlen(DLT_IEEE802_11), -1);
}

static void test_lengths(void)
{
	static uint8_t big[9000];
	uint32_t extra = 0;

	/* Ethernet as it is, up to what a test run takes; the rest is extra */
	big[12] = 0x08;
	ASSERT_EQ(pcapfile_convert(DLT_EN10MB, big, 9000, 9000, out, &extra), PCAPFILE_FRAME_MAX);
	ASSERT_EQ(extra, 9000 - PCAPFILE_FRAME_MAX);
	ASSERT_EQ(pcapfile_convert(DLT_EN10MB, big, 60, 60, out, &extra), 60);
	ASSERT_EQ(extra, 0);
	/* cut inside the link header: an empty IPv4 packet, the wire's bytes kept */
	ASSERT_EQ(pcapfile_convert(DLT_EN10MB, big, 8, 78, out, &extra), 14);
	ASSERT_EQ(ethertype(), 0x0800);
	ASSERT_EQ(extra, 78 - 14);
	ASSERT_EQ(pcapfile_convert(DLT_LINUX_SLL, big, 10, 100, out, &extra), 14);
	ASSERT_EQ(extra, 100 - 16); /* the filter adds SLL's 16 bytes: 100 on the wire */
	ASSERT_EQ(pcapfile_convert(DLT_RAW, big, 0, 60, out, &extra), 14);
	ASSERT_EQ(extra, 60); /* no link header: the filter adds nothing */
	/* a file saying less was on the wire than it holds: what it holds */
	ASSERT_EQ(pcapfile_convert(DLT_EN10MB, big, 100, 50, out, &extra), 100);
	ASSERT_EQ(extra, 0);
}

/* A file that cannot be read: named once, with the reason (libpcap names it too). */
static void test_open_error_names_the_file_once(void)
{
	char err[512];

	ASSERT_TRUE(pcapfile_open("/nonexistent-flowtop.pcap", err, sizeof(err)) == NULL);
	ASSERT_STREQ(err, "cannot read '/nonexistent-flowtop.pcap': No such file or directory");
}

int main(void)
{
	RUN_TEST(test_link_types);
	RUN_TEST(test_lengths);
	RUN_TEST(test_open_error_names_the_file_once);
	return test_summary("test_pcapfile");
}
