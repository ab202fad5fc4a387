// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* churn_send.c: address churn for the benchmarks and the soak test: 60-byte IPv4 UDP
 * frames from COUNT distinct sources (10.0.0.0/8 counted up from FIRST) to one
 * destination, sent out of IFACE with an AF_PACKET socket in sendmmsg batches; the whole
 * run of sources ROUNDS times, at most PPS frames a second (0: as fast as it can).
 *
 *   churn_send IFACE FIRST COUNT [ROUNDS [PPS]]    prints "<frames> <seconds>" */
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
#include <linux/udp.h>
#include <sys/socket.h>

#define BATCH	  256
#define FRAME_LEN 60

/* Two bytes ahead of the 14-byte Ethernet header put the IP header on a 4-byte boundary. */
struct frame {
	unsigned char pad[2];
	unsigned char bytes[FRAME_LEN];
} __attribute__((aligned(4)));

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void build(unsigned char *f, uint32_t src)
{
	struct ethhdr *eth = (struct ethhdr *)f;
	struct iphdr *ip = (struct iphdr *)(f + sizeof(*eth));
	struct udphdr *udp = (struct udphdr *)(ip + 1);

	memset(f, 0, FRAME_LEN);
	memcpy(eth->h_dest, "\x02\x00\x00\x00\x00\x02", ETH_ALEN);
	memcpy(eth->h_source, "\x02\x00\x00\x00\x00\x01", ETH_ALEN);
	eth->h_proto = htons(ETH_P_IP);
	ip->version = 4;
	ip->ihl = 5;
	ip->ttl = 64;
	ip->protocol = IPPROTO_UDP;
	ip->tot_len = htons(FRAME_LEN - sizeof(*eth));
	ip->saddr = htonl(0x0a000000u | (src & 0xffffff));
	ip->daddr = htonl(0x0afffffeu); /* 10.255.255.254 */
	udp->source = htons(1024);
	udp->dest = htons(9);
	udp->len = htons(FRAME_LEN - sizeof(*eth) - sizeof(*ip));
}

int main(int argc, char **argv)
{
	static struct frame frames[BATCH];
	struct sockaddr_ll to = { .sll_family = AF_PACKET, .sll_protocol = htons(ETH_P_IP) };
	unsigned long first, count, rounds = 1, pps = 0, r, i, sent = 0;
	struct mmsghdr msgs[BATCH];
	struct iovec iov[BATCH];
	double t0;
	int fd;

	if (argc < 4) {
		fprintf(stderr, "usage: churn_send IFACE FIRST COUNT [ROUNDS [PPS]]\n");
		return 2;
	}
	first = strtoul(argv[2], NULL, 10);
	count = strtoul(argv[3], NULL, 10);
	if (argc > 4)
		rounds = strtoul(argv[4], NULL, 10);
	if (argc > 5)
		pps = strtoul(argv[5], NULL, 10);
	to.sll_ifindex = (int)if_nametoindex(argv[1]);
	fd = socket(AF_PACKET, SOCK_RAW, 0);
	if (fd < 0 || !to.sll_ifindex) {
		perror("churn_send");
		return 1;
	}
	memset(msgs, 0, sizeof(msgs));
	for (i = 0; i < BATCH; i++) {
		iov[i].iov_base = frames[i].bytes;
		iov[i].iov_len = FRAME_LEN;
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

			for (k = 0; k < n; k++)
				build(frames[k].bytes, (uint32_t)(first + i + k));
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
