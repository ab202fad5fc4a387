/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* hosttab.h: the host table: cumulative counts and per-interval deltas per address,
 * fed one kernel sample at a time. Knows nothing of BPF: unit tests drive it directly. */
#ifndef FLOWTOP_HOSTTAB_H
#define FLOWTOP_HOSTTAB_H

#include <stddef.h>
#include <stdint.h>

#include "../bpf/flowtop.h"

struct host {
	struct flow_key addr;	    /* the address */
	struct flow_counters total; /* cumulative since attach; survives map evictions */
	struct flow_counters delta; /* added during the last interval */
	struct flow_counters seen;  /* the kernel entry's own counters at the last sample */
	uint32_t gen;		    /* the sample that last found it in the map */
};

struct hosttab;

struct hosttab *hosttab_new(void);
void hosttab_free(struct hosttab *t);
/* Forgets every host (a new interface). */
void hosttab_clear(struct hosttab *t);

/* One sample: begin, observe every map entry once, end. */
void hosttab_begin(struct hosttab *t);
int hosttab_observe(struct hosttab *t, const struct flow_key *key,
		    const struct flow_counters *kernel);
void hosttab_end(struct hosttab *t, double interval);

size_t hosttab_count(const struct hosttab *t);	  /* hosts ever seen since the last clear */
size_t hosttab_live(const struct hosttab *t);	  /* hosts found in the map by the last sample */
double hosttab_interval(const struct hosttab *t); /* seconds the last sample covered */
const struct host *hosttab_get(const struct hosttab *t, size_t i);
const struct host *hosttab_find(const struct hosttab *t, const struct flow_key *key);

/* Fills rows with every host, in cmp's order; rows holds hosttab_count() pointers. */
typedef int (*host_cmp_fn)(const struct host *a, const struct host *b);
void hosttab_sorted(const struct hosttab *t, const struct host **rows, host_cmp_fn cmp);

/* Busiest first: bytes both ways over the last interval, then cumulative bytes, then
 * address, so the order is total and stable from one sample to the next. */
int host_cmp_rate(const struct host *a, const struct host *b);

static inline double per_second(uint64_t delta, double interval)
{
	return interval > 0 ? (double)delta / interval : 0.0;
}

#endif
