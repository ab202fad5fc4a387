// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* attach_filter.c: loads the first program of a BPF object file and attaches it to a
 * packet socket on an interface exactly as flowtop attaches its own, then waits for a
 * signal. The benchmarks' reference filters run through it.
 *
 *   attach_filter OBJECT IFACE [raw]   prints the program id, runs until SIGINT/SIGTERM
 *
 * With "raw" the socket is SOCK_RAW, so the program sees the frame from the link header
 * on, as the 2014 seed (sockex2) was written for. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>
#include <linux/if_packet.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "iface.h"
#include "rawsock.h"

int main(int argc, char **argv)
{
	struct bpf_prog_info info = {};
	__u32 len = sizeof(info);
	struct bpf_program *prog;
	struct iface_info iface;
	struct bpf_object *obj;
	sigset_t set;
	int fd, err, sig;

	if (argc != 3 && !(argc == 4 && !strcmp(argv[3], "raw"))) {
		fprintf(stderr, "usage: attach_filter OBJECT IFACE [raw]\n");
		return 2;
	}
	obj = bpf_object__open_file(argv[1], NULL);
	if (!obj || bpf_object__load(obj)) {
		fprintf(stderr, "attach_filter: cannot load %s\n", argv[1]);
		return 1;
	}
	prog = bpf_object__next_program(obj, NULL);
	err = iface_get(argv[2], &iface);
	if (!prog || err) {
		fprintf(stderr, "attach_filter: no program, or no interface %s\n", argv[2]);
		return 1;
	}
	if (argc == 4) { /* as rawsock_prepare does, on a SOCK_RAW socket */
		int pfd = bpf_program__fd(prog);

		fd = socket(AF_PACKET, SOCK_RAW | SOCK_CLOEXEC, 0);
		if (fd >= 0 && setsockopt(fd, SOL_SOCKET, SO_ATTACH_BPF, &pfd, sizeof(pfd)))
			fd = -1;
	} else {
		fd = rawsock_prepare(bpf_program__fd(prog));
	}
	if (fd < 0 || rawsock_bind(fd, &iface) || rawsock_arm(fd, &iface)) {
		fprintf(stderr, "attach_filter: cannot attach: %s\n", strerror(errno));
		return 1;
	}
	bpf_obj_get_info_by_fd(bpf_program__fd(prog), &info, &len);
	printf("%u\n", info.id);
	fflush(stdout);
	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigprocmask(SIG_BLOCK, &set, NULL);
	sigwait(&set, &sig);
	rawsock_close(fd);
	bpf_object__close(obj);
	return 0;
}
