/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* fill_hosts.h: N synthetic hosts (10.x.y.z, counters on the first CPU) written into a
 * hosts map with one BPF_MAP_UPDATE_BATCH, for the benchmarks that need a full map. */
#ifndef FLOWTOP_FILL_HOSTS_H
#define FLOWTOP_FILL_HOSTS_H

#include <errno.h>
#include <stdlib.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "../bpf/flowtop.h"

/* 0, or -errno; *done is how many went in. */
static inline int fill_hosts(int fd, unsigned long n, unsigned *done)
{
	int ncpus = libbpf_num_possible_cpus();
	struct flow_key *keys = calloc(n, sizeof(*keys));
	struct flow_counters *vals = calloc(n * (unsigned long)ncpus, sizeof(*vals));
	__u32 count = (__u32)n;
	unsigned long i;
	int err = -ENOMEM;

	if (keys && vals) {
		for (i = 0; i < n; i++) {
			keys[i].addr[10] = keys[i].addr[11] = 0xff;
			keys[i].addr[12] = 10;
			keys[i].addr[13] = (__u8)(i >> 16);
			keys[i].addr[14] = (__u8)(i >> 8);
			keys[i].addr[15] = (__u8)i;
			vals[i * ncpus] = (struct flow_counters){ 1 + i % 7, 100 + i, 1, 60 };
		}
		err = bpf_map_update_batch(fd, keys, vals, &count, NULL);
	}
	*done = err ? count : (unsigned)n;
	free(keys);
	free(vals);
	return err;
}

#endif
