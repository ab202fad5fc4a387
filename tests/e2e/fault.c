// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* fault.c: faults for the end-to-end tests, preloaded (LD_PRELOAD) into flowtop and
 * chosen by the environment; every other call is the real one.
 *   FAULT_BIND_IFACE=NAME  bind() of a packet socket to NAME fails with ENODEV, as if it
 *                          had gone between being looked up and being bound
 *   FAULT_WHEN=FILE        the faults below hold only while FILE exists
 *   FAULT_BPF_READ=1       reading a BPF map (lookup, next key, batch) fails with EPERM
 *   FAULT_POLL=1           poll() fails with ENOMEM
 *   FAULT_KERNEL=FEATURE   the bpf() system call answers as a kernel without FEATURE
 *                          would: "atomics" (before 5.12), a program with an atomic
 *                          fetch (or exchange) is refused with EINVAL; "mmapable"
 *                          (before 5.5), a map with BPF_F_MMAPABLE; "batch" (before
 *                          5.13), a batch lookup of a per-CPU array fails with the
 *                          kernel's ENOTSUPP (524); "verifier", every
 *                          program longer than 100 instructions with E2BIG, as a
 *                          verifier that gives up on it */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <linux/bpf.h>
#include <linux/if_packet.h>
#include <net/if.h>
#include <poll.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
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
	int index = name ? (int)if_nametoindex(name) : 0; /* 0: no such interface (yet) */

	if (!real_bind)
		real_bind =
		    (int (*)(int, const struct sockaddr *, socklen_t))dlsym(RTLD_NEXT, "bind");
	/* index 0 would be every interface's socket, under any */
	if (index && addr && addr->sa_family == AF_PACKET && len >= sizeof(struct sockaddr_ll) &&
	    ((const struct sockaddr_ll *)addr)->sll_ifindex == index) {
		errno = ENODEV;
		return -1;
	}
	return real_bind(fd, addr, len);
}

/* The type of the map with fd, or -1. */
static int map_type(__u32 fd)
{
	struct bpf_map_info info = { 0 };
	union bpf_attr attr = {
		.info = { .bpf_fd = fd, .info_len = sizeof(info), .info = (unsigned long)&info }
	};

	/* this file's own syscall(), which passes the call on */
	return syscall(SYS_bpf, BPF_OBJ_GET_INFO_BY_FD, &attr, sizeof(attr)) ? -1 : (int)info.type;
}

/* Whether a bpf() call with these arguments meets FAULT_KERNEL's kernel's refusal; the
 * errno it answers with, or 0. */
static int old_kernel_refuses(long cmd, const union bpf_attr *attr)
{
	const char *lacks = getenv("FAULT_KERNEL");
	const struct bpf_insn *insn;
	__u32 i;

	if (!lacks || !attr)
		return 0;
	if (cmd == BPF_MAP_LOOKUP_BATCH && !strcmp(lacks, "batch"))
		return map_type(attr->batch.map_fd) == BPF_MAP_TYPE_PERCPU_ARRAY ? 524 : 0;
	if (cmd == BPF_MAP_CREATE)
		return !strcmp(lacks, "mmapable") && (attr->map_flags & BPF_F_MMAPABLE) ? EINVAL
											: 0;
	if (cmd != BPF_PROG_LOAD)
		return 0;
	if (!strcmp(lacks, "verifier"))
		return attr->insn_cnt > 100 ? E2BIG : 0;
	if (strcmp(lacks, "atomics"))
		return 0;
	insn = (const struct bpf_insn *)(unsigned long)attr->insns;
	for (i = 0; i < attr->insn_cnt; i++)
		if (BPF_CLASS(insn[i].code) == BPF_STX && BPF_MODE(insn[i].code) == BPF_ATOMIC &&
		    (insn[i].imm & BPF_FETCH))
			return EINVAL;
	return 0;
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
	if (nr == SYS_bpf && (errno = old_kernel_refuses(a[0], (const union bpf_attr *)a[1])))
		return -1;
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
