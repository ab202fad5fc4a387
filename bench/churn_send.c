// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* churn_send.c: address churn for the benchmarks and the soak test: 60-byte IPv4 UDP
 * frames from COUNT distinct sources (10.0.0.0/8 counted up from FIRST) to one
 * destination, sent out of IFACE with an AF_PACKET socket in sendmmsg batches; the whole
 * run of sources ROUNDS times, at most PPS frames a second (0: as fast as it can). With
 * --gre each is a 70-byte frame carried in GRE with a key between two fixed tunnel
 * ends (10.254.0.1 to 10.254.0.2): the distinct sources are the inner ones. With --pairs
 * frame i is of pair i, whose addresses differ from pair i - 1's in their host bytes
 * alone: 10.100.x.y to 10.200.x.y (x.y: i's low 16 bits), and every fourth pair IPv6,
 * fd00:100::i to fd00:200::i (an 80-byte frame of the same UDP payload). With --scatter
 * frame i is from source s = i * 0x9e3779b1 mod 2^24 (the sources a scan or a spoofed
 * flood sends from: each once a round, in no order a cache or a hash could ride), to one
 * of 16 destinations by i % 16: 172.16.0.1 to .15 (IPv4 frames, never .4, .8, .12 or
 * .16), or every fourth frame IPv6, fd00:100::s to fd00:200::4, ::8, ::c or ::10.
 *
 *   churn_send [--gre | --pairs | --scatter] IFACE FIRST COUNT [ROUNDS [PPS]]
 *                                                  prints "<frames> <seconds>" */
#include <arpa/inet.h>
#include <errno.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <linux/if_ether.h>
#include <linux/if_packet.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/udp.h>
#include <sys/socket.h>

#define BATCH	  256
#define FRAME_LEN 60 /* a plain frame; with --gre, GRE_LEN */
#define GRE_LEN	  70 /* Ethernet, outer IPv4, GRE with a key, inner IPv4, UDP */
#define V6_LEN	  80 /* Ethernet, IPv6, UDP and FRAME_LEN's 18 bytes of payload */
#define FRAME_MAX 80

/* Two bytes ahead of the 14-byte Ethernet header put the IP header on a 4-byte boundary. */
struct frame {
	unsigned char pad[2];
	unsigned char bytes[FRAME_MAX];
} __attribute__((aligned(4)));

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* An IPv4 header of an ip_len-byte packet from saddr to daddr (host order). */
static void ipv4(struct iphdr *ip, unsigned ip_len, uint8_t proto, uint32_t saddr, uint32_t daddr)
{
	ip->version = 4;
	ip->ihl = 5;
	ip->ttl = 64;
	ip->protocol = proto;
	ip->tot_len = htons((uint16_t)ip_len);
	ip->saddr = htonl(saddr);
	ip->daddr = htonl(daddr);
}

/* A UDP header and zero payload after an IP header at p, to the frame's end at end. */
static void udp_to(unsigned char *p, const unsigned char *end)
{
	struct udphdr *udp = (struct udphdr *)p;

	udp->source = htons(1024);
	udp->dest = htons(9);
	udp->len = htons((uint16_t)(end - p));
}

/* Frame i of a mixed UDP flood: every fourth IPv6, fd00:100::src6 to
 * fd00:200::dst6 (V6_LEN bytes), the others IPv4, src4 to dst4 (FRAME_LEN); its length. */
static unsigned build_mixed(unsigned char *f, uint32_t i, uint32_t src4, uint32_t dst4,
			    uint32_t src6, uint32_t dst6)
{
	struct ethhdr *eth = (struct ethhdr *)f;
	unsigned char *p = f + sizeof(*eth);
	struct ipv6hdr *ip6 = (struct ipv6hdr *)p;
	uint32_t src = htonl(src6), dst = htonl(dst6);
	unsigned len = i % 4 == 3 ? V6_LEN : FRAME_LEN;

	memset(f, 0, len);
	memcpy(eth->h_dest, "\x02\x00\x00\x00\x00\x02", ETH_ALEN);
	memcpy(eth->h_source, "\x02\x00\x00\x00\x00\x01", ETH_ALEN);
	if (len == FRAME_LEN) {
		eth->h_proto = htons(ETH_P_IP);
		ipv4((struct iphdr *)p, len - sizeof(*eth), IPPROTO_UDP, src4, dst4);
		udp_to(p + sizeof(struct iphdr), f + len);
		return len;
	}
	eth->h_proto = htons(ETH_P_IPV6);
	ip6->version = 6;
	ip6->payload_len = htons((uint16_t)(len - sizeof(*eth) - sizeof(*ip6)));
	ip6->nexthdr = IPPROTO_UDP;
	ip6->hop_limit = 64;
	memcpy(ip6->saddr.s6_addr, "\xfd\x00\x01\x00", 4);
	memcpy(ip6->saddr.s6_addr + 12, &src, 4);
	memcpy(ip6->daddr.s6_addr, "\xfd\x00\x02\x00", 4);
	memcpy(ip6->daddr.s6_addr + 12, &dst, 4);
	udp_to(p + sizeof(*ip6), f + len);
	return len;
}

/* The frame of pair i (--pairs): IPv4 10.100.x.y to 10.200.x.y, or every fourth IPv6
 * fd00:100::i to fd00:200::i; its length. */
static unsigned build_pair(unsigned char *f, uint32_t i)
{
	return build_mixed(f, i, 0x0a640000u | (i & 0xffff), 0x0ac80000u | (i & 0xffff), i, i);
}

/* The frame of source i of a scattered flood (--scatter); its length. */
static unsigned build_scatter(unsigned char *f, uint32_t i)
{
	uint32_t s = (i * 0x9e3779b1u) & 0xffffff;

	return build_mixed(f, i, 0x0a000000u | s, 0xac100000u | (i % 16 + 1), s, i % 16 + 1);
}

/* The frame from source src, len bytes (FRAME_LEN, or GRE_LEN in GRE). */
static void build(unsigned char *f, unsigned len, uint32_t src)
{
	struct ethhdr *eth = (struct ethhdr *)f;
	unsigned char *p = f + sizeof(*eth);

	memset(f, 0, len);
	memcpy(eth->h_dest, "\x02\x00\x00\x00\x00\x02", ETH_ALEN);
	memcpy(eth->h_source, "\x02\x00\x00\x00\x00\x01", ETH_ALEN);
	eth->h_proto = htons(ETH_P_IP);
	if (len == GRE_LEN) { /* outer header, then GRE: flags K, IPv4, key 1 */
		static const unsigned char gre[8] = { 0x20, 0x00, 0x08, 0x00, 0, 0, 0, 1 };

		ipv4((struct iphdr *)p, len - sizeof(*eth), IPPROTO_GRE, 0x0afe0001u, 0x0afe0002u);
		p += sizeof(struct iphdr);
		memcpy(p, gre, sizeof(gre));
		p += sizeof(gre);
	}
	ipv4((struct iphdr *)p, (unsigned)(f + len - p), IPPROTO_UDP,
	     0x0a000000u | (src & 0xffffff), 0x0afffffeu); /* to 10.255.255.254 */
	udp_to(p + sizeof(struct iphdr), f + len);
}

int main(int argc, char **argv)
{
	static struct frame frames[BATCH];
	struct sockaddr_ll to = { .sll_family = AF_PACKET, .sll_protocol = htons(ETH_P_IP) },
			   to6 = { .sll_family = AF_PACKET, .sll_protocol = htons(ETH_P_IPV6) };
	unsigned long first, count, rounds = 1, pps = 0, r, i, sent = 0;
	unsigned len = FRAME_LEN;
	enum {
		ONE_DESTINATION,
		PAIRS,
		SCATTER
	} shape = ONE_DESTINATION;
	struct mmsghdr msgs[BATCH];
	struct iovec iov[BATCH];
	double t0;
	int fd;

	if (argc > 1 && !strcmp(argv[1], "--gre")) {
		len = GRE_LEN;
		argc--, argv++;
	} else if (argc > 1 && !strcmp(argv[1], "--pairs")) {
		shape = PAIRS;
		argc--, argv++;
	} else if (argc > 1 && !strcmp(argv[1], "--scatter")) {
		shape = SCATTER;
		argc--, argv++;
	}
	if (argc < 4) {
		fprintf(stderr,
			"usage: churn_send [--gre | --pairs | --scatter] IFACE FIRST COUNT [ROUNDS "
			"[PPS]]\n");
		return 2;
	}
	first = strtoul(argv[2], NULL, 10);
	count = strtoul(argv[3], NULL, 10);
	if (argc > 4)
		rounds = strtoul(argv[4], NULL, 10);
	if (argc > 5)
		pps = strtoul(argv[5], NULL, 10);
	to.sll_ifindex = to6.sll_ifindex = (int)if_nametoindex(argv[1]);
	fd = socket(AF_PACKET, SOCK_RAW, 0);
	if (fd < 0 || !to.sll_ifindex) {
		perror("churn_send");
		return 1;
	}
	memset(msgs, 0, sizeof(msgs));
	for (i = 0; i < BATCH; i++) {
		iov[i].iov_base = frames[i].bytes;
		iov[i].iov_len = len;
		msgs[i].msg_hdr.msg_name = &to;
		msgs[i].msg_hdr.msg_namelen = sizeof(to);
		msgs[i].msg_hdr.msg_iov = &iov[i];
		msgs[i].msg_hdr.msg_iovlen = 1;
	}
	t0 = now();
	for (r = 0; r < rounds; r++) {
		for (i = 0; i < count;) {
			unsigned n = count - i < BATCH ? (unsigned)(count - i) : BATCH, k;
			int done;

			for (k = 0; k < n; k++) {
				if (shape == ONE_DESTINATION) {
					build(frames[k].bytes, len, (uint32_t)(first + i + k));
					continue;
				}
				iov[k].iov_len =
				    shape == PAIRS
					? build_pair(frames[k].bytes, (uint32_t)(first + i + k))
					: build_scatter(frames[k].bytes, (uint32_t)(first + i + k));
				msgs[k].msg_hdr.msg_name = iov[k].iov_len == V6_LEN ? &to6 : &to;
			}
			done = sendmmsg(fd, msgs, n, 0);
			if (done < 0 && errno != ENOBUFS && errno != EAGAIN && errno != EINTR) {
				perror("churn_send: sendmmsg");
				return 1;
			}
			if (done > 0) {
				i += (unsigned)done;
				sent += (unsigned)done;
			}
			while (pps && (double)sent / pps > now() - t0)
				usleep(1000);
		}
	}
	printf("%lu %.3f\n", sent, now() - t0);
	return 0;
}
