// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* failbind.c: a fault for the end-to-end tests, preloaded (LD_PRELOAD): bind() of a
 * packet socket to the interface named by FAILBIND_IFACE fails with ENODEV, as if it
 * had gone between being looked up and being bound. Every other call is the real one. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <linux/if_packet.h>
#include <net/if.h>
#include <stdlib.h>
#include <sys/socket.h>

int bind(int fd, const struct sockaddr *addr, socklen_t len)
{
	static int (*real_bind)(int, const struct sockaddr *, socklen_t);
	const char *name = getenv("FAILBIND_IFACE");

	if (!real_bind)
		real_bind =
		    (int (*)(int, const struct sockaddr *, socklen_t))dlsym(RTLD_NEXT, "bind");
	if (name && addr && addr->sa_family == AF_PACKET && len >= sizeof(struct sockaddr_ll) &&
	    ((const struct sockaddr_ll *)addr)->sll_ifindex == (int)if_nametoindex(name)) {
		errno = ENODEV;
		return -1;
	}
	return real_bind(fd, addr, len);
}
