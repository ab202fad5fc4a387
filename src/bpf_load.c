// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* bpf_load.c: skeleton open, map sizing, load, and the libbpf print callback. */
#include "bpf_load.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include <bpf/libbpf.h>

/* generated code: bpftool casts the const away from the embedded object */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wcast-qual"
#include "flowtop.skel.h"
#pragma GCC diagnostic pop

static bool libbpf_verbose;

static int print_libbpf(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	(void)level;
	if (!libbpf_verbose)
		return 0;
	return vfprintf(stderr, fmt, ap);
}

struct flowtop_bpf *bpf_load(unsigned max_hosts, bool verbose, char *err, size_t errlen)
{
	struct flowtop_bpf *skel;
	int ret;

	libbpf_verbose = verbose;
	libbpf_set_print(print_libbpf);
	skel = flowtop_bpf__open();
	if (!skel) {
		snprintf(err, errlen, "cannot open the embedded BPF object: %s", strerror(errno));
		return NULL;
	}
	ret = bpf_map__set_max_entries(skel->maps.hosts, max_hosts);
	if (ret) {
		snprintf(err, errlen, "cannot size the hosts map to %u: %s", max_hosts,
			 strerror(-ret));
		goto out_destroy;
	}
	ret = flowtop_bpf__load(skel);
	if (ret) {
		if (ret == -EPERM || ret == -EACCES)
			snprintf(err, errlen,
				 "the kernel refused to load the BPF program (%s): flowtop needs "
				 "CAP_BPF and CAP_NET_RAW, or root",
				 strerror(-ret));
		else if (ret == -ENOMEM || ret == -E2BIG)
			snprintf(err, errlen,
				 "cannot create a map of %u hosts (%s): try a smaller -m",
				 max_hosts, strerror(-ret));
		else
			snprintf(err, errlen,
				 "cannot load the BPF program: %s (run with -v for libbpf's log)",
				 strerror(-ret));
		goto out_destroy;
	}
	return skel;

out_destroy:
	flowtop_bpf__destroy(skel);
	return NULL;
}

void bpf_unload(struct flowtop_bpf *skel)
{
	flowtop_bpf__destroy(skel);
}

int bpf_load_prog_fd(const struct flowtop_bpf *skel)
{
	return bpf_program__fd(skel->progs.flowtop_count);
}

int bpf_load_hosts_fd(const struct flowtop_bpf *skel)
{
	return bpf_map__fd(skel->maps.hosts);
}

int bpf_load_stats_fd(const struct flowtop_bpf *skel)
{
	return bpf_map__fd(skel->maps.stats);
}

void bpf_load_set_link_hlen(struct flowtop_bpf *skel, unsigned link_hlen)
{
	skel->data->link_hlen = link_hlen;
}
