/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* hosttab.h: the host table: per address, cumulative counts, the last sample's deltas and
 * the last HISTORY_SLOTS samples' bytes (for 2/10/40 s rates and the peak). It holds at
 * most `capacity` hosts: when a new address arrives in a full table the host idle the
 * longest leaves, and its counts are folded into "other", so that hosts + other always
 * add up to everything counted. Fed with increments, one frame or one delta at a time;
 * knows nothing of BPF: unit tests drive it directly. */
#ifndef FLOWTOP_HOSTTAB_H
#define FLOWTOP_HOSTTAB_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "../bpf/flowtop.h"

#define HISTORY_SLOTS 40 /* samples kept: 40 s at the default 1 s delay */

struct host {
	struct flow_key addr;	      /* the address */
	struct flow_counters total;   /* cumulative since attach */
	struct flow_counters delta;   /* added during the last sample */
	struct flow_counters pending; /* added since the last sample */
	float rx_hist[HISTORY_SLOTS]; /* bytes received in sample n, at n % HISTORY_SLOTS */
	float tx_hist[HISTORY_SLOTS]; /* and sent */
	float peak;		      /* highest 2 s rate both ways, bytes/s */
	uint32_t tick;		      /* the last sample it had traffic in */
	uint32_t pending_tick;	      /* tick + 1 of the sample pending holds, or older */
	uint32_t newer, older;	      /* neighbours by last activity (indices) */
	uint32_t seq;		      /* when it last moved to the newest end */
};

struct hosttab;

/* A table of at most capacity hosts (at least 1). NULL with errno set. */
struct hosttab *hosttab_new(size_t capacity);
void hosttab_free(struct hosttab *t);
/* Forgets every host and "other" (a new interface). */
void hosttab_clear(struct hosttab *t);

/* Adds one frame of `bytes` to key, as its sender (tx) or receiver. 0 or -ENOMEM. */
int hosttab_add_frame(struct hosttab *t, const struct flow_key *key, int tx, uint64_t bytes);
/* Adds counters to key (the spill map's deltas). 0 or -ENOMEM. */
int hosttab_add(struct hosttab *t, const struct flow_key *key, const struct flow_counters *c);
/* Closes the sample: what was added since the last call becomes the hosts' deltas and
 * their newest history slot. Costs what changed: hosts without traffic are not visited. */
void hosttab_end(struct hosttab *t, double interval);

size_t hosttab_count(const struct hosttab *t);	  /* hosts held */
size_t hosttab_capacity(const struct hosttab *t); /* most hosts held */
size_t hosttab_active(const struct hosttab *t);	  /* hosts with traffic in the last sample */
double hosttab_interval(const struct hosttab *t); /* seconds the last sample covered */
uint32_t hosttab_tick(const struct hosttab *t);	  /* samples closed since the last clear */
/* Hosts that left a full table, and everything they had counted. */
uint64_t hosttab_departed(const struct hosttab *t);
const struct flow_counters *hosttab_other(const struct hosttab *t);
/* Host i, 0 <= i < count, in no particular order (indices stay while it stays). */
const struct host *hosttab_get(const struct hosttab *t, size_t i);
const struct host *hosttab_find(const struct hosttab *t, const struct flow_key *key);

/* Bytes per second of h over the last `seconds` (the fewest recent samples covering
 * that long, or all kept), received (tx = 0) or sent. */
double hosttab_rate(const struct hosttab *t, const struct host *h, double seconds, int tx);

/* Busiest first: bytes both ways over the last sample, then cumulative bytes, then
 * address, so the order is total and stable from one sample to the next. */
int host_cmp_rate(const struct host *a, const struct host *b);

static inline double per_second(uint64_t delta, double interval)
{
	return interval > 0 ? (double)delta / interval : 0.0;
}

static inline uint64_t flow_key_hash(const struct flow_key *key)
{
	uint64_t a, b;

	memcpy(&a, key->addr, 8);
	memcpy(&b, key->addr + 8, 8);
	a ^= b * 0x9e3779b97f4a7c15ULL;
	a ^= a >> 32;
	a *= 0xd6e8feb86659fd93ULL;
	return a ^ (a >> 32);
}

#endif
