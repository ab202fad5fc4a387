/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* sampler.h: empties the filter's per-CPU rings into a host table (often, between
 * samples) and closes one sample per interval with the totals. The only code that knows
 * how the BPF maps store counters. */
#ifndef FLOWTOP_SAMPLER_H
#define FLOWTOP_SAMPLER_H

#include <stdbool.h>
#include <stdint.h>

#include "../bpf/flowtop.h"
#include "bpf_load.h"
#include "convo.h"
#include "hosttab.h"

/* Whole-interface frame counts, as the outputs see them (the BPF layout, struct
 * flow_stats, stays in sampler.c). */
struct traffic_counts {
	uint64_t frames;      /* every frame, counted or not */
	uint64_t bytes;	      /* their length on the wire */
	uint64_t non_ip;      /* frames with no IP header on the dissector's path */
	uint64_t truncated;   /* frames cut short or invalid inside a header on the path */
	uint64_t new_entries; /* spill map entries the filter created */
	uint64_t lost;	      /* address updates lost to hosts (not to the totals): refused by
			       * the spill map, or dropped by its LRU before a read */
	uint64_t out_frames;  /* frames this host sent (the rest it received) */
	uint64_t out_bytes;   /* their length on the wire */
	uint64_t spilled;     /* frames counted through the spill map */
};

/* Whole-interface counters. */
struct flow_totals {
	struct traffic_counts total; /* cumulative since attach */
	struct traffic_counts delta; /* added during the last interval */
	struct flow_counters other;  /* what the hosts that left the table had counted */
	uint64_t live_hosts;	     /* hosts in the table at the last sample */
	uint64_t evicted;	     /* hosts that left the full table since attach */
	uint64_t capacity;	     /* hosts the table can hold */
	double interval;	     /* seconds the last sample covered */
};

struct sampler;

/* Maps the rings of maps (fds not owned). NULL with errno set. */
struct sampler *sampler_new(const struct bpf_maps *maps);
void sampler_free(struct sampler *s);

/* Empties the maps, the table and the totals: call while no socket is attached. */
int sampler_reset(struct sampler *s, struct hosttab *t, struct flow_totals *totals);

/* Moves every record the rings hold into t (no system call). Returns how many. */
uint64_t sampler_drain(struct sampler *s, struct hosttab *t);

/* Closes one sample: the rings, the spill map when it took frames, and the stats, read
 * in an order that keeps every host's count within the totals. interval is the time
 * since the previous sample. 0 or -errno. */
int sampler_read(struct sampler *s, struct hosttab *t, struct flow_totals *totals, double interval);

/* From now on, also feeds every frame the rings carry to c (NULL: none), and closes
 * its samples with the table's. c is not owned. */
void sampler_set_convo(struct sampler *s, struct convo *c);

#endif
