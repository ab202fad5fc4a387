/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* sampler.h: reads the kernel's counters once per interval into a host table and
 * totals. The only code that knows how the BPF maps store counters. */
#ifndef FLOWTOP_SAMPLER_H
#define FLOWTOP_SAMPLER_H

#include <stdbool.h>
#include <stdint.h>

#include "../bpf/flowtop.h"
#include "hosttab.h"

/* Whole-interface counters. */
struct flow_totals {
	struct flow_stats total; /* cumulative since attach */
	struct flow_stats delta; /* added during the last interval */
	uint64_t live_hosts;	 /* entries in the map at the last sample */
	uint64_t evicted;	 /* entries the map's LRU dropped since attach */
	uint64_t capacity;	 /* entries the map can hold */
	double interval;	 /* seconds the last sample covered */
};

struct sampler;

/* Takes the two map fds (not owned). Returns NULL with errno set. */
struct sampler *sampler_new(int hosts_fd, int stats_fd);
void sampler_free(struct sampler *s);

/* Empties the maps: call while no socket is attached, before counting anew. */
int sampler_reset(struct sampler *s, struct hosttab *t, struct flow_totals *totals);

/* Reads every map entry into t and the stats into totals; interval is the time since
 * the previous sample. Returns 0 or -errno. */
int sampler_read(struct sampler *s, struct hosttab *t, struct flow_totals *totals, double interval);

/* Reads key by key from now on, as on kernels without batch ops (benchmarks). */
void sampler_force_by_key(struct sampler *s);

#endif
