/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* bpf_load.h: the embedded BPF object: open, size the map, load, destroy. */
#ifndef FLOWTOP_BPF_LOAD_H
#define FLOWTOP_BPF_LOAD_H

#include <stdbool.h>
#include <stddef.h>

struct flowtop_bpf;

/* Opens the skeleton, sizes the hosts map to max_hosts and loads it into the kernel.
 * NULL on failure, with the reason in err. libbpf's own messages only with verbose. */
struct flowtop_bpf *bpf_load(unsigned max_hosts, bool verbose, char *err, size_t errlen);
void bpf_unload(struct flowtop_bpf *skel);

int bpf_load_prog_fd(const struct flowtop_bpf *skel);
int bpf_load_hosts_fd(const struct flowtop_bpf *skel);
int bpf_load_stats_fd(const struct flowtop_bpf *skel);
/* Tells the program how long the link header of the next attached interface is. */
void bpf_load_set_link_hlen(struct flowtop_bpf *skel, unsigned link_hlen);

#endif
