// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* rawsock.c: SOCK_DGRAM packet sockets: open, SO_ATTACH_BPF, bind (for no protocol,
 * then for all), SO_DETACH_BPF.
 *
 * SOCK_DGRAM because the filter is written against the network header: on such a socket
 * the kernel runs it on the frame from the network header on, as BPF_PROG_TEST_RUN does. */
#include "rawsock.h"

#include <errno.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <linux/if_ether.h>
#include <linux/if_packet.h>
#include <sys/socket.h>

#ifndef PACKET_IGNORE_OUTGOING
#define PACKET_IGNORE_OUTGOING 23
#endif

int rawsock_prepare(int prog_fd)
{
	/* protocol 0: no frames reach the socket until bind names one */
	int fd = socket(AF_PACKET, SOCK_DGRAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);

	if (fd < 0)
		return -errno;
	if (setsockopt(fd, SOL_SOCKET, SO_ATTACH_BPF, &prog_fd, sizeof(prog_fd))) {
		int err = -errno;

		close(fd);
		return err;
	}
	return fd;
}

/* Binds fd to iface for protocol (network order; 0: none, and no hook in the kernel). */
static int bind_for(int fd, const struct iface_info *iface, uint16_t protocol)
{
	struct sockaddr_ll sll = {
		.sll_family = AF_PACKET,
		.sll_protocol = protocol,
		.sll_ifindex = iface->ifindex,
	};

	return bind(fd, (struct sockaddr *)&sll, sizeof(sll)) ? -errno : 0;
}

int rawsock_bind(int fd, const struct iface_info *iface)
{
	int one = 1;

	/* loopback hands a packet socket every frame twice, outgoing and incoming */
	if (iface->loopback &&
	    setsockopt(fd, SOL_PACKET, PACKET_IGNORE_OUTGOING, &one, sizeof(one)))
		return -errno;
	return bind_for(fd, iface, 0);
}

int rawsock_arm(int fd, const struct iface_info *iface)
{
	return bind_for(fd, iface, htons(ETH_P_ALL));
}

void rawsock_close(int fd)
{
	int dummy = 0;

	if (fd < 0)
		return;
	setsockopt(fd, SOL_SOCKET, SO_DETACH_BPF, &dummy, sizeof(dummy));
	close(fd);
}

int rawsock_error(int fd)
{
	int err = 0;
	socklen_t len = sizeof(err);

	if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len))
		return errno;
	return err;
}
