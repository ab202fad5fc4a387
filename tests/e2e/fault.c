// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* fault.c: faults for the end-to-end tests, preloaded (LD_PRELOAD) into flowtop and
 * chosen by the environment; every other call is the real one.
 *   FAULT_BIND_IFACE=NAME  bind() of a packet socket to NAME fails with ENODEV, as if it
 *                          had gone between being looked up and being bound
 *   FAULT_WHEN=FILE        the faults below hold only while FILE exists
 *   FAULT_BPF_READ=1       reading a BPF map (lookup, next key, batch) fails with EPERM
 *   FAULT_POLL=1           poll() fails with ENOMEM */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <linux/bpf.h>
#include <linux/if_packet.h>
#include <net/if.h>
#include <poll.h>
#include <stdarg.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

/* Whether the fault named by variable holds now. */
static int fault_on(const char *variable)
{
	const char *when = getenv("FAULT_WHEN"), *v = getenv(variable);

	return v && *v == '1' && (!when || access(when, F_OK) == 0);
}

int bind(int fd, const struct sockaddr *addr, socklen_t len)
{
	static int (*real_bind)(int, const struct sockaddr *, socklen_t);
	const char *name = getenv("FAULT_BIND_IFACE");

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

long syscall(long nr, ...)
{
	static long (*real_syscall)(long, ...);
	long a[6];
	va_list ap;
	int i;

	if (!real_syscall)
		real_syscall = (long (*)(long, ...))dlsym(RTLD_NEXT, "syscall");
	va_start(ap, nr);
	for (i = 0; i < 6; i++)
		a[i] = va_arg(ap, long);
	va_end(ap);
	if (nr == SYS_bpf &&
	    (a[0] == BPF_MAP_LOOKUP_ELEM || a[0] == BPF_MAP_GET_NEXT_KEY ||
	     a[0] == BPF_MAP_LOOKUP_BATCH) &&
	    fault_on("FAULT_BPF_READ")) {
		errno = EPERM;
		return -1;
	}
	return real_syscall(nr, a[0], a[1], a[2], a[3], a[4], a[5]);
}

int poll(struct pollfd *fds, nfds_t n, int timeout)
{
	static int (*real_poll)(struct pollfd *, nfds_t, int);

	if (!real_poll)
		real_poll = (int (*)(struct pollfd *, nfds_t, int))dlsym(RTLD_NEXT, "poll");
	if (fault_on("FAULT_POLL")) {
		errno = ENOMEM;
		return -1;
	}
	return real_poll(fds, n, timeout);
}
