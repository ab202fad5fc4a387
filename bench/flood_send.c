// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* flood_send.c: sends as many small UDP packets as it can for a fixed time, with
 * sendmmsg(2) in batches, and prints how many it sent. The benchmark's traffic source.
 *
 *   flood_send DEST_IPV4 SECONDS [PAYLOAD_BYTES]    prints "<packets> <seconds>" */
#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/socket.h>

#define BATCH 64

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	struct sockaddr_in dst = { .sin_family = AF_INET, .sin_port = htons(9) };
	struct mmsghdr msgs[BATCH];
	struct iovec iov[BATCH];
	char payload[1500] = { 0 };
	unsigned long long sent = 0;
	double secs, t0, t = 0;
	size_t len = 18; /* a 60-byte frame: 14 + 20 + 8 + 18 */
	int fd, i, n;

	if (argc < 3 || inet_pton(AF_INET, argv[1], &dst.sin_addr) != 1) {
		fprintf(stderr, "usage: flood_send DEST_IPV4 SECONDS [PAYLOAD_BYTES]\n");
		return 2;
	}
	secs = atof(argv[2]);
	if (argc > 3)
		len = (size_t)atoi(argv[3]) < sizeof(payload) ? (size_t)atoi(argv[3]) : len;
	fd = socket(AF_INET, SOCK_DGRAM, 0);
	if (fd < 0 || connect(fd, (struct sockaddr *)&dst, sizeof(dst))) {
		perror("flood_send");
		return 1;
	}
	memset(msgs, 0, sizeof(msgs));
	for (i = 0; i < BATCH; i++) {
		iov[i].iov_base = payload;
		iov[i].iov_len = len;
		msgs[i].msg_hdr.msg_iov = &iov[i];
		msgs[i].msg_hdr.msg_iovlen = 1;
	}
	t0 = now();
	do {
		n = sendmmsg(fd, msgs, BATCH, 0);
		if (n > 0)
			sent += (unsigned long long)n;
		else if (n < 0 && errno != ENOBUFS && errno != EAGAIN && errno != EINTR)
			break;
		t = now();
	} while (t - t0 < secs);
	printf("%llu %.3f\n", sent, t - t0);
	return 0;
}
